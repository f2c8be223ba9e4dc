/**
 * The production queues' strategies (src/strategies/<queue>/), every step from every state, on PGlite and
 * on a real PostgreSQL server (see state-graph.ts).
 *
 * npm test plays the scenario where their guards differ, with each queue's own guard (fencing off): a
 * worker paused past its lease writes after the run was taken over (paused-worker). The full ground truth
 * (GROUND_TRUTH=full, npm run test:ground-truth:full) plays every two-worker scenario under every queue,
 * fencing on and off.
 */
import { SCENARIOS } from '../../src/scenarios';
import { QUEUE_STRATEGY_IDS } from '../../src/strategies';
import { everyState } from './state-graph';

const FULL = process.env.GROUND_TRUTH === 'full';
const IN_NPM_TEST = ['paused-worker'];
const TWO_WORKERS = SCENARIOS.filter((s) => s.workers.length === 2).map((s) => s.id);

for (const id of FULL ? TWO_WORKERS : IN_NPM_TEST) everyState(id, QUEUE_STRATEGY_IDS, { group: 'production queues', npmTestFencing: false });
