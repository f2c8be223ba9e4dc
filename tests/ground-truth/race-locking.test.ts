// The race under the locking claims, every schedule enumerated (about 900): plain FOR UPDATE is the claim
// whose waiter relocks the rows it had found, the one the PGlite adapter has to reproduce with care. In the
// full ground truth only: npm test checks every state of the race under all five strategies
// (graph-races.test.ts) and enumerates every schedule under naive and compare-and-set (race.test.ts).
import { describe, it } from 'vitest';
import { everyInterleaving } from './exhaustive';

if (process.env.GROUND_TRUTH === 'full') everyInterleaving('race', ['skip-locked', 'for-update', 'nowait']);
else describe('every schedule of the race under the locking claims', () => it.skip('in npm run test:ground-truth:full', () => {}));
