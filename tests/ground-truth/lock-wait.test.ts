// lock-wait under every strategy, every schedule enumerated: about 780 schedules. In the full ground truth
// only: npm test checks every state of lock-wait under every strategy and fencing (graph-races.test.ts).
import { describe, it } from 'vitest';
import { STRATEGIES } from '../../src/sim/types';
import { everyInterleaving } from './exhaustive';

if (process.env.GROUND_TRUTH === 'full') everyInterleaving('lock-wait', STRATEGIES);
else describe('every schedule of lock-wait', () => it.skip('in npm run test:ground-truth:full', () => {}));
