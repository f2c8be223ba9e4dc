// PGlite's JavaScript, loaded by Node alone (the CLI's worker thread imports this before tsx registers, see
// cli/pglite-thread-entry.mjs): tsx's loader would rewrite PGlite's 370 kB chunk with a source map at every
// start and cache none of it. Here, in db/, because only db/ imports a database driver.
await import('@electric-sql/pglite');
