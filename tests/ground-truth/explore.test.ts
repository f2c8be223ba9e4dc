/**
 * What the explorer finds must hold on a real server too: the shortest witness of every outcome group,
 * for the naive race and for a seeded sample of the other two-worker scenarios and settings, replayed on
 * real PostgreSQL, must end in the same group with the same final `runs` table (and the same steps: the
 * differential harness compares every step, and retries schedules whose commit wakes several waiters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExploredSchedule } from '../../src/engine/enumerate';
import { exploreForLab, outcomeOf } from '../../src/engine/explore';
import { runSchedule } from '../../src/engine/run';
import { findScenario, INCIDENT_SCENARIOS, LESSON_SCENARIOS } from '../../src/scenarios';
import { pick, seededRandom } from '../../src/sim/random';
import { STRATEGIES, type Settings } from '../../src/sim/types';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, playUntilRefused, summary, wakesSeveralWaiters } from './differential';

const SEED = 20_300_606;
/** Seeded picks besides the naive race. */
const PICKS = 3;
/** Past this many states a pick is sampled (as the app would do, with a smaller budget): keeps the test quick. */
const MAX_STATES = 400;
const SAMPLE = 24;

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('explore', 1);
});

afterAll(async () => {
  await dbs?.close();
});

function cases(): { id: string; settings: Settings }[] {
  const random = seededRandom(SEED);
  // A limit's scenario is played under its own claim (graph-tenant-cap.test.ts), not drawn here.
  const twoWorker = [...LESSON_SCENARIOS, ...INCIDENT_SCENARIOS].filter((s) => s.workers.length === 2 && s.id !== 'race');
  const picked = Array.from({ length: PICKS }, () => ({
    id: pick(random, twoWorker).id,
    settings: { strategy: pick(random, STRATEGIES), fencing: random() < 0.5 },
  }));
  return [{ id: 'race', settings: { strategy: 'naive', fencing: false } }, ...picked];
}

describe('explored witnesses agree on PGlite and PostgreSQL', () => {
  it.for(cases())('$id, $settings.strategy, fencing $settings.fencing', async ({ id, settings }, { signal }) => {
    const scenario = findScenario(id)!;
    const explored = await exploreForLab(dbs.pglite, scenario, settings, { maxStates: MAX_STATES, sampleSize: SAMPLE, seed: SEED });
    expect(explored.groups.length).toBeGreaterThan(0);
    const witnesses: ExploredSchedule[] = [];
    for (const group of explored.groups) {
      const trace = await runSchedule(dbs.pglite, scenario, settings, group.witness);
      expect(outcomeOf(trace.anomalies).key, `PGlite: ${group.witness.join(',')}`).toBe(group.key);
      witnesses.push({ schedule: group.witness, trace });
    }
    // The outcome group and final table on the server, said plainly; then every step, via the harness.
    const lab = dbs.postgres[0]!;
    for (const { schedule, trace } of witnesses) {
      // Where one commit wakes several waiters the server may order them otherwise: the harness retries those.
      if (wakesSeveralWaiters(trace)) continue;
      const onServer = await playUntilRefused(lab, scenario, settings, schedule);
      expect(onServer.refused, schedule.join(',')).toBeNull();
      expect(outcomeOf(onServer.trace.anomalies).key, `PostgreSQL: ${schedule.join(',')}`).toBe(outcomeOf(trace.anomalies).key);
      expect(onServer.trace.finalRuns, `PostgreSQL final runs: ${schedule.join(',')}`).toEqual(trace.finalRuns);
    }
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, witnesses, signal);
    console.info(summary(`explore ${id} ${settings.strategy} fencing ${settings.fencing ? 'on' : 'off'} (${explored.coverage})`, result));
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
