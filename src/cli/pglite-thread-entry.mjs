// The worker thread's entry (see pglite-thread.ts): Node does not carry the main thread's loaders into a
// worker, so it registers TypeScript and the `?raw` SQL imports itself before it loads the lab.
// PGlite is plain JavaScript: imported first, by Node alone, it is not passed through tsx's loader, which
// rewrites every `import(` of a JavaScript file with a source map and caches none of it (~0.5 s of CPU for
// PGlite's 370 kB chunk at every start). The lab's own import of it then finds the module already loaded.
await import('../db/pglite-preload.mjs');
const { register } = await import('tsx/esm/api');

register();
await import('../../scripts/raw-loader.mjs');
await import('./pglite-thread-worker.ts');
