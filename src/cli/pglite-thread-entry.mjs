// The worker thread's entry (see pglite-thread.ts): Node does not carry the main thread's loaders into a
// worker, so it registers TypeScript and the `?raw` SQL imports itself before it loads the lab.
import { register } from 'tsx/esm/api';

register();
await import('../../scripts/raw-loader.mjs');
await import('./pglite-thread-worker.ts');
