/**
 * How long a spec the page takes: far more than a spec (the longest the project holds, its examples and
 * PostgreSQL's row-locking specs, is under 3,000 characters), so only a paste of something else meets it. The page's runner (spec-host.ts)
 * refuses a longer one, and a link's spec (store/spec-link.ts) may not inflate past it. A module of its own
 * so the page's store reads it without pulling in the worker's code.
 */
export const PAGE_MAX_SPEC_CHARS = 100_000;
