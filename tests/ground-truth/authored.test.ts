/**
 * Authored scenarios (the editor's, a link's) on the same ground truth as the built-in ones: the issue's
 * instructor case (three workers, a five-minute lease, A pausing past it) and a crash with a short lease,
 * each made by scenarioFromSpec exactly as the page makes it, under every strategy with fencing on and off:
 * its script and seeded random schedules play the same on PGlite and a real PostgreSQL server.
 * (The seeded swarm of generated scenarios is issue 23's item 4, elsewhere.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploredSchedule, seededSchedules } from '../../src/engine/enumerate';
import { runSchedule } from '../../src/engine/run';
import { type ScenarioSpec, scenarioFromSpec } from '../../src/scenarios/authored';
import { STRATEGIES } from '../../src/sim/types';
import { INCIDENT_ONLY_QUEUE_IDS } from '../../src/strategies';
import { crashScenarioSpec, instructorScenarioSpec } from '../support/scenario-specs';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, summary } from './differential';

const SPECS: ScenarioSpec[] = [
  instructorScenarioSpec(),
  // The editor's crash case, with heartbeats and the naive claim, both workers claiming before the crash.
  { ...crashScenarioSpec(), heartbeatSeconds: 10, strategy: 'naive', fencing: false, script: ['A', 'B', 'A', 'B', '+5', '+26', 'B', 'B'] },
];
const RANDOM_PER_SETTING = 3;
const SEED = 20_261_202;

let dbs: Databases;
beforeAll(async () => {
  dbs = await openDatabases('authored');
});
afterAll(async () => {
  await dbs?.close();
});

// The queues added for their incidents alone are compared by those (INCIDENT_ONLY_QUEUE_IDS says why).
const PLAYED = STRATEGIES.filter((strategy) => !INCIDENT_ONLY_QUEUE_IDS.includes(strategy));

const cases = SPECS.flatMap((spec, index) => PLAYED.flatMap((strategy) => [false, true].map((fencing) => ({ index, title: spec.title, strategy, fencing }))));

describe('authored scenarios agree on PGlite and PostgreSQL', () => {
  it.for(cases.map((c, at) => ({ ...c, seed: SEED + at })))('$title, $strategy, fencing $fencing (seed $seed)', async ({ index, strategy, fencing, seed }, {
    signal,
  }) => {
    const built = scenarioFromSpec(SPECS[index]!);
    if (!built.scenario) throw new Error(built.problems[0]?.message);
    const scenario = built.scenario;
    const settings = { strategy, fencing };
    const random = await seededSchedules(dbs.pglite, scenario, settings, RANDOM_PER_SETTING, seed);
    const scripted = await runSchedule(dbs.pglite, scenario, settings, scenario.script, { onInapplicable: 'skip' });
    const schedules: ExploredSchedule[] = [...random, { schedule: scripted.schedule, trace: scripted }];
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, schedules, signal);
    console.info(summary(`${scenario.id} ${strategy} fencing ${fencing ? 'on' : 'off'} seed ${seed}`, result));
    expect(result.schedules).toBe(RANDOM_PER_SETTING + 1);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
