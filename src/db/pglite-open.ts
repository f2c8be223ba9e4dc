/** Starting PGlite with what the lab needs: prepared transactions on, small buffers, little WAL. */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';

export const LAB_START_PARAMS = [
  '-c',
  'max_prepared_transactions=16',
  // The default buffer pool is zeroed at start; 16 MB is plenty for a few thousand runs and starts faster.
  '-c',
  'shared_buffers=16MB',
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

export async function startPGlite(options: Omit<PGliteOptions, 'startParams'> = {}): Promise<PGlite> {
  const { PGlite } = await loadPGlite();
  return PGlite.create({ ...options, startParams: labStartParams(PGlite) });
}
