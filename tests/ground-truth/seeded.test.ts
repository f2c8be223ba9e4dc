/**
 * The scenarios npm test does not check whole: random complete schedules from fixed seeds, plus each
 * scenario's own script, under every strategy with fencing on and off, must play the same on PGlite and
 * on a real PostgreSQL server. The three-worker scenario (200 random schedules), and the two-worker
 * scenarios whose every state is checked in the full ground truth only (state-graph.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploredSchedule, seededSchedules } from '../../src/engine/enumerate';
import { runSchedule } from '../../src/engine/run';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { LAB_STRATEGY_IDS as STRATEGIES } from '../../src/strategies';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, summary } from './differential';
import { FULL_RUN_ONLY } from './state-graph';

/** Random schedules per strategy and fencing: 5 × 2 × (20 + 4 × 4) = 360 in all, plus the 50 scripts. */
const PER_SETTING: Record<string, number> = Object.fromEntries([
  ...SCENARIOS.filter((s) => s.workers.length > 2).map((s) => [s.id, 20] as const),
  ...[...FULL_RUN_ONLY].map((id) => [id, 4] as const),
]);
const SCENARIO_IDS = Object.keys(PER_SETTING);
const SEED = 20_300_101;

let dbs: Databases;
let total = 0;

beforeAll(async () => {
  dbs = await openDatabases('seeded');
});

afterAll(async () => {
  await dbs?.close();
  console.info(`seeded ground truth: ${total} schedules compared`);
});

const cases = SCENARIO_IDS.flatMap((id) => STRATEGIES.flatMap((strategy) => [false, true].map((fencing) => ({ id, strategy, fencing }))));

describe('seeded random schedules agree on PGlite and PostgreSQL', () => {
  it.for(cases.map((c, index) => ({ ...c, seed: SEED + index })))('$id, $strategy, fencing $fencing (seed $seed)', async ({ id, strategy, fencing, seed }, {
    signal,
  }) => {
    const scenario = findScenario(id)!;
    const settings = { strategy, fencing };
    const random = await seededSchedules(dbs.pglite, scenario, settings, PER_SETTING[id]!, seed);
    // The lesson's own script too, with the tokens this strategy cannot apply left out, as the CLI plays it.
    const scripted = await runSchedule(dbs.pglite, scenario, settings, scenario.script, { onInapplicable: 'skip' });
    const schedules: ExploredSchedule[] = [...random, { schedule: scripted.schedule, trace: scripted }];
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, schedules, signal);
    console.info(summary(`${id} ${strategy} fencing ${fencing ? 'on' : 'off'} seed ${seed}`, result));
    total += result.schedules;
    expect(result.schedules).toBe(PER_SETTING[id]! + 1);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
