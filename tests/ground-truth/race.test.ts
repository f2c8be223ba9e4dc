// The race under the strategies without row locks, every schedule enumerated: 700 schedules. In the full
// ground truth only: npm test checks every state of the race under all five strategies (graph-races.test.ts).
import { describe, it } from 'vitest';
import { everyInterleaving } from './exhaustive';

if (process.env.GROUND_TRUTH === 'full') everyInterleaving('race', ['naive', 'cas']);
else describe('every schedule of the race under naive and compare-and-set', () => it.skip('in npm run test:ground-truth:full', () => {}));
