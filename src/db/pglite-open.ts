/** Starting PGlite with what the lab needs: prepared transactions on, small buffers, little WAL. */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

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

export async function startPGlite(options: Omit<PGliteOptions, 'startParams'> = {}): Promise<PGlite> {
  return PGlite.create({ ...options, startParams: [...PGlite.defaultStartParams, ...LAB_START_PARAMS] });
}
