/** Starting PGlite with what the lab needs: prepared transactions on, small buffers, little WAL. */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { labPGliteClass, type PGliteClassModule } from './pglite-internals';

const LAB_START_PARAMS = [
  '-c',
  'max_prepared_transactions=16',
  // Shared memory is zeroed at start, in fresh wasm memory (25 MB with 16 MB of buffers, 16 MB with 8, 11 MB
  // with 4): in a returning learner's start on two busy cores that memset was a median 83 ms of the engine
  // worker's CPU with 8 MB, 56 ms with 4 (traces, 5 loads each). 4 MB (512 pages) still holds every page the
  // lab reads: all scenarios played through, the warm-up and their resets read ~300 and evicted none (pg_stat_io).
  '-c',
  'shared_buffers=4MB',
  '-c',
  'max_wal_size=32MB',
  '-c',
  'min_wal_size=32MB',
];

/**
 * PGlite's module, loaded on first use. In the browser's worker bundle this makes PGlite's JavaScript
 * (~130 kB gzip) a chunk of its own, fetched and compiled while its wasm and data download, instead of
 * a delay before the worker can ask for them.
 */
export function loadPGlite(): Promise<typeof import('@electric-sql/pglite')> {
  return import('@electric-sql/pglite');
}

/**
 * PGlite's defaults plus the lab's. Pass these on every start (a clone or a restart from a dump too):
 * PGlite keeps no start parameters of its own, and `postgresqlconf` would replace the whole file.
 */
export function labStartParams(pglite: Pick<typeof PGlite, 'defaultStartParams'>): string[] {
  return [...pglite.defaultStartParams, ...LAB_START_PARAMS];
}

/**
 * PGlite, started without its one start-up query: the array types it reads so that query() can turn
 * arrays in results into JavaScript arrays. In a fresh process that query was ~90 ms of a ~0.7 s start
 * (its first run compiles much of the planner and PGlite's result parser). The lab's own statements never
 * return arrays and go through PGliteWire, not query(); so the array types are read on the first query(),
 * exec() or transaction() instead (the console's first statement), before it runs. Same options as
 * PGlite.create().
 */
export async function createLabPGlite(pglite: PGliteClassModule, options: PGliteOptions): Promise<PGlite> {
  const pg = new (labPGliteClass(pglite))(options);
  await pg.waitReady;
  return pg;
}
