/**
 * The production queues' strategies (src/strategies/<queue>/) and their incidents (src/scenarios/incident-*.ts),
 * every step from every state, on PGlite and on a real PostgreSQL server (see state-graph.ts).
 *
 * npm test plays, with each queue's own guard (fencing off): each incident under its own queue (and with fencing
 * on too where that is the incident's fix, as for River #1302), and, for a
 * queue with no incident yet, the scenario where the queues' guards differ (a worker paused past its lease
 * writes after the run was taken over: paused-worker). The full ground truth (GROUND_TRUTH=full, npm run
 * test:ground-truth:full) plays every two-worker scenario, incidents included, under every queue with
 * fencing on and off, and each incident under its fix when the fix is one of the lab's own claims.
 */
import { INCIDENT_SCENARIOS, SCENARIOS } from '../../src/scenarios';
import { QUEUE_STRATEGY_IDS } from '../../src/strategies';
import { everyState } from './state-graph';

const FULL = process.env.GROUND_TRUTH === 'full';
const QUEUES = { group: 'production queues', npmTestFencing: false };

if (FULL) {
  for (const { id } of SCENARIOS.filter((s) => s.workers.length === 2)) everyState(id, QUEUE_STRATEGY_IDS, QUEUES);
  for (const { id, incident } of INCIDENT_SCENARIOS) {
    if (!QUEUE_STRATEGY_IDS.includes(incident!.fix.strategy)) everyState(id, [incident!.fix.strategy], { group: 'fix' });
  }
} else {
  const withIncident = new Set(INCIDENT_SCENARIOS.map((s) => s.incident!.queue));
  // Every queue may have an incident by now: an empty list would be a suite with no test.
  const withoutIncident = QUEUE_STRATEGY_IDS.filter((queue) => !withIncident.has(queue));
  if (withoutIncident.length > 0) everyState('paused-worker', withoutIncident, QUEUES);
  // An incident whose fix is its own queue's with fencing on (River #1302: PR #1373's guarded rescue) plays both.
  for (const { id, incident } of INCIDENT_SCENARIOS) {
    const fixIsFencing = incident!.fix.strategy === incident!.queue && incident!.fix.fencing;
    everyState(id, [incident!.queue], { group: `${incident!.queue} queue`, ...(fixIsFencing ? {} : { npmTestFencing: false }) });
  }
}
