/**
 * One cold start in a fresh Node process, for bench/node.bench.ts. Prints one line of JSON.
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/start-child.ts data-dir|initdb
 */
export {};

const mode = process.argv[2];
if (mode !== 'data-dir' && mode !== 'initdb') throw new Error('usage: start-child.ts data-dir|initdb');

const importStarted = performance.now();
// PGlite's module too: bootLab() loads it on first use, and the import is not part of starting Postgres.
await import('@electric-sql/pglite');
const { bootLab } = await import('../src/db/pglite-boot');
const imported = performance.now();
const rssBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const boot = await bootLab({ dataDir: mode === 'initdb' ? null : undefined });
const cpu = process.cpuUsage(cpuBefore);
const firstQueryStarted = performance.now();
await boot.db.pg.query('SELECT 1');
const firstQueryMs = performance.now() - firstQueryStarted;
const result = {
  mode,
  source: boot.source,
  fallbackReason: boot.fallbackReason,
  importMs: imported - importStarted,
  bootMs: boot.ms,
  filesMs: boot.marks.files,
  startedMs: boot.marks.started,
  cpuMs: (cpu.user + cpu.system) / 1000,
  firstQueryMs,
  heapBytes: boot.db.pg.Module.HEAPU8.byteLength,
  rssDeltaBytes: process.memoryUsage().rss - rssBefore,
};
await boot.db.close();
console.log(JSON.stringify(result));
