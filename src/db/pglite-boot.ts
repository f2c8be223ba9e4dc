/**
 * Starts the lab's database on PGlite. One function for the browser's Web Worker and for Node, so
 * start-up work (a pre-built data directory, pre-compressed files) is done in one place.
 */
import { PGliteLab } from './pglite-lab';
import { startPGlite } from './pglite-open';

export async function bootLabDatabase(): Promise<PGliteLab> {
  return PGliteLab.open(await startPGlite());
}
