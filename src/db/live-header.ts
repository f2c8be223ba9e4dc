/**
 * The response header the live bridge (src/live/static.ts, Node) puts on everything it serves, and the page's
 * engine worker (src/db/bridge-lab.ts, browser) looks for: a module of its own so Node code need not import
 * the browser's bridge client to name it.
 */
export const LIVE_HEADER = 'x-lease-lab-live';
