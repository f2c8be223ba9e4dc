// lock-wait under each of the lab's five claims, every schedule enumerated: about 780 schedules (the
// production queues' claims are in graph-queues.test.ts). In the full ground truth
// only: npm test checks every state of lock-wait under every strategy and fencing (graph-races.test.ts).
import { describe, it } from 'vitest';
import { LAB_STRATEGY_IDS } from '../../src/strategies';
import { everyInterleaving } from './exhaustive';

if (process.env.GROUND_TRUTH === 'full') everyInterleaving('lock-wait', LAB_STRATEGY_IDS);
else describe('every schedule of lock-wait', () => it.skip('in npm run test:ground-truth:full', () => {}));
