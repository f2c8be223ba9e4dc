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
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, summary } from './differential';

const SPECS: ScenarioSpec[] = [
  {
    version: 1,
    title: 'Our queue: A pauses during its lease',
    description: ['Three workers, two tenants, a five-minute lease.', 'A freezes for six minutes at 15:02, then writes.'],
    workers: 3,
    runs: [
      { runId: 501, tenant: 'acme', costCents: 0 },
      { runId: 502, tenant: 'globex', costCents: 120 },
    ],
    leaseSeconds: 300,
    heartbeatSeconds: null,
    strategy: 'skip-locked',
    fencing: true,
    faults: [{ kind: 'pause', worker: 'A', atSeconds: 120, forSeconds: 360 }],
    script: ['A', 'A', 'A', 'B', 'B', 'B', '+120', '+301', 'C', 'C', 'C', '+60', 'A'],
  },
  {
    version: 1,
    title: 'Ours: a 30 s lease and a crash',
    description: ['A claims run 900 and crashes at 0:05; B reclaims it once the lease is gone.', ''],
    workers: 2,
    runs: [{ runId: 900, tenant: 'initech', costCents: 80 }],
    leaseSeconds: 30,
    heartbeatSeconds: 10,
    strategy: 'naive',
    fencing: false,
    faults: [{ kind: 'crash', worker: 'A', atSeconds: 5 }],
    script: ['A', 'B', 'A', 'B', '+5', '+26', 'B', 'B'],
  },
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

const cases = SPECS.flatMap((spec, index) =>
  STRATEGIES.flatMap((strategy) => [false, true].map((fencing) => ({ index, title: spec.title, strategy, fencing }))),
);

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
