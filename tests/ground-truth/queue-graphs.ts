/**
 * The production queues' strategies (src/strategies/<queue>/) and their incidents (src/scenarios/incident-*.ts),
 * every step from every state, on PGlite and on a real PostgreSQL server (see state-graph.ts).
 *
 * The full ground truth (GROUND_TRUTH=full, which CI runs) plays every two-worker scenario of the lesson
 * under every queue, and each incident under its own queue and under its fix, with fencing on and off,
 * every step from every state (the few SCRIPT_ONLY_INCIDENTS by their scripts, as npm test). npm test plays each incident's script under its queue and under its fix,
 * step by step on both databases (the whole state graphs took over a minute of npm test's ten), and
 * paused-worker's whole graph under any queue with no incident.
 *
 * The graphs are split over several graph-queues-*.test.ts files (QUEUE_GRAPH_FILES) because vitest runs
 * one file's tests one after another: in one file they were a single worker's 12 minutes while the other
 * worker had finished. queue-graphs-cover.test.ts checks that every lesson scenario is in exactly one file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runSchedule } from '../../src/engine/run';
import { findScenario, fixScenarioOf, INCIDENT_SCENARIOS } from '../../src/scenarios';
import { INCIDENT_ONLY_QUEUE_IDS, QUEUE_STRATEGY_IDS } from '../../src/strategies';
import { compareOnPostgres, type Databases, describeDivergences } from './differential';
import { databasesOfThisFile, everyState } from './state-graph';

const FULL = process.env.GROUND_TRUTH === 'full';
const QUEUES = { group: 'production queues', npmTestFencing: false };

/** Which lesson scenarios each graph-queues-<name>.test.ts plays under every queue; the heaviest alone. */
export const QUEUE_GRAPH_FILES = {
  races: ['race', 'lock-wait'],
  crash: ['crash-orphan', 'paused-worker'],
  heartbeat: ['heartbeat'],
  'stuck-heartbeat': ['stuck-heartbeat'],
  cancel: ['cancel-durable', 'cancel-kill'],
} as const satisfies Record<string, readonly string[]>;

/** The lesson scenarios of one file, every state under every queue (full ground truth); see the module comment for npm test. */
export function queueGraphs(file: keyof typeof QUEUE_GRAPH_FILES): void {
  const ids: readonly string[] = QUEUE_GRAPH_FILES[file];
  if (FULL) {
    // The queues added for their incidents alone are compared by their incidents' scripts (INCIDENT_ONLY_QUEUE_IDS says why).
    const queues = QUEUE_STRATEGY_IDS.filter((queue) => !INCIDENT_ONLY_QUEUE_IDS.includes(queue));
    for (const id of ids) everyState(id, queues, QUEUES);
    return;
  }
  const withIncident = new Set(INCIDENT_SCENARIOS.map((s) => s.incident!.queue));
  const withoutIncident = QUEUE_STRATEGY_IDS.filter((queue) => !withIncident.has(queue));
  if (ids.includes('paused-worker') && withoutIncident.length > 0) {
    everyState('paused-worker', withoutIncident, QUEUES);
    return;
  }
  describe(`every state of ${ids.join(', ')} under every queue`, () => it.skip('in the full ground truth (GROUND_TRUTH=full)', () => {}));
}

/**
 * Incidents the full ground truth checks by their scripts alone, as npm test does, not by their whole graphs:
 * those added once this file was CI's slowest. incident-oban-532's two graphs (fencing off and on) took
 * 49 s on a 2-core machine shared with other work; its script under its queue and under its fix, 1.4 to 8 s
 * as that machine's load varied. incident-pgqueuer-430's graph under its queue took 52 s with fencing off and
 * 30 s with it on, before its fix's; its heartbeat-cadence twin, incident-hangfire-352, is as long a script.
 * incident-delayed-job-1045's story is its script (two workers under one name, in one order); its script
 * under its queue and under its fix is compared step by step. So is incident-dbos-491's (one process's two
 * lanes at launch, in the launch's own instant).
 */
const SCRIPT_ONLY_INCIDENTS: readonly string[] = [
  'incident-oban-532',
  'incident-pgqueuer-430',
  'incident-hangfire-352',
  'incident-delayed-job-1045',
  'incident-dbos-491',
];

/**
 * Each incident under its own queue (whose story it is) and under its fix: whole graphs in the full ground
 * truth (but SCRIPT_ONLY_INCIDENTS), the scripts in npm test.
 */
export function incidentGraphs(): void {
  if (FULL) {
    // An incident under the other five queues told no one anything and was over half of CI's time.
    for (const { id, incident } of INCIDENT_SCENARIOS) {
      if (SCRIPT_ONLY_INCIDENTS.includes(id)) continue;
      everyState(id, [incident!.queue], { group: `${incident!.queue} queue` });
      if (incident!.fix.strategy !== incident!.queue) everyState(id, [incident!.fix.strategy], { group: 'fix' });
      // A fix that is a setting (pg-boss #529's lease) is a scenario of its own.
      if (incident!.fix.scenarioId !== undefined) everyState(incident!.fix.scenarioId, [incident!.fix.strategy], { group: 'fix' });
    }
  }
  const scripted = INCIDENT_SCENARIOS.filter((scenario) => !FULL || SCRIPT_ONLY_INCIDENTS.includes(scenario.id));
  // The graphs' databases, if the full ground truth played any in this file (see databasesOfThisFile).
  const databases = databasesOfThisFile('graph_queues_scripts');
  describe("each incident's script, under its queue and under its fix, agrees on PGlite and PostgreSQL", () => {
    let dbs: Databases;
    beforeAll(async () => {
      dbs = await databases();
    });
    const cases = scripted.flatMap((scenario) => {
      const { queue, fix } = scenario.incident!;
      return [
        { id: scenario.id, as: 'its queue', settings: { strategy: queue, fencing: false }, played: scenario.id, reaches: true },
        // A fix that is a setting (pg-boss #529's lease) is a scenario of its own, with the same script.
        { id: scenario.id, as: 'its fix', settings: { strategy: fix.strategy, fencing: fix.fencing }, played: fixScenarioOf(scenario).id, reaches: false },
      ];
    });
    it.for(cases)('$id under $as', async ({ id, settings, played, reaches }) => {
      const script = findScenario(id)!;
      const scenario = findScenario(played)!;
      // A worker may stop sooner than the script expects (under a fix, or a script that ends on a finished
      // worker): the schedule compared is the one applied.
      const pglite = await runSchedule(dbs.pglite, scenario, settings, script.script, { onInapplicable: 'skip' });
      expect(pglite.schedule.length).toBeGreaterThan(0);
      const result = await compareOnPostgres(dbs.postgres, scenario, settings, [{ schedule: pglite.schedule, trace: pglite }]);
      expect(result.schedules).toBe(1);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
      // The anomalies are part of every step compared, so PostgreSQL reaches the incident's anomaly exactly where PGlite does.
      const anomaly = script.incident!.anomaly;
      expect(
        pglite.anomalies.some((found) => found.kind === anomaly),
        `${anomaly} ${reaches ? 'reached' : 'not reached'}`,
      ).toBe(reaches);
    });
  });
}
