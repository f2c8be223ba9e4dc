/**
 * The chapter "What production queues do" on a real PostgreSQL server, one connection per worker: every
 * moment its narration points at, and every combination of its two predict questions' parameters, plays
 * the same on the server as on PGlite, and the question read from the server's trace gets the same answer.
 * So what the chapter tells a learner about graphile-worker, Oban, pg-boss, River, Solid Queue and
 * procrastinate holds on Postgres, not only on the lab's one-session stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedule } from '../../src/engine/run';
import { chapterById } from '../../src/lessons/chapters';
import { lateFinish, longJob } from '../../src/lessons/predict';
import type { PredictInstance } from '../../src/lessons/types';
import { findScenario } from '../../src/scenarios';
import type { Scenario, Settings } from '../../src/sim/types';
import { everyCombination, lateFinishCombination, longJobCombination } from '../support/predict-combinations';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, playUntilRefused } from './differential';

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('production_queues');
});

afterAll(async () => {
  await dbs?.close();
});

async function sameOnPostgres(scenario: Scenario, settings: Settings, schedule: string[]) {
  const pglite = await runSchedule(dbs.pglite, scenario, settings, schedule, { onInapplicable: 'error' });
  const result = await compareOnPostgres(dbs.postgres, scenario, settings, [{ schedule, trace: pglite }]);
  expect(result.schedules).toBe(1);
  expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  const server = await playUntilRefused(dbs.postgres[0]!, scenario, settings, schedule);
  expect(server.refused).toBeNull();
  expect(server.trace.database).toBe('postgres');
  return { pglite, server: server.trace };
}

describe("the chapter's moments play the same on PostgreSQL", () => {
  const chapter = chapterById('production-queues');
  const marks = chapter.steps.flatMap((step) => (step.mark && step.mark.tokenIndex !== null ? [{ step: step.id, mark: step.mark }] : []));

  it.each(marks.map((m) => [m.step, m] as const))('%s', async (_, { mark }) => {
    const scenario = findScenario(mark.scenarioId ?? chapter.scenarioId!)!;
    await sameOnPostgres(scenario, mark.settings ?? chapter.settings!, mark.schedule ?? scenario.script);
  });
});

describe('the predict questions get the same answer from PostgreSQL', () => {
  const instances: [string, PredictInstance][] = [
    ...[...everyCombination(longJob, longJobCombination)].map(([name, instance]) => [`long-job ${name}`, instance] as [string, PredictInstance]),
    ...[...everyCombination(lateFinish, lateFinishCombination)].map(([name, instance]) => [`late-finish ${name}`, instance] as [string, PredictInstance]),
  ];

  it.each(instances)('%s', async (_, instance) => {
    const { pglite, server } = await sameOnPostgres(instance.scenario, instance.settings, instance.schedule);
    const answer = instance.answerFrom(pglite);
    expect(answer).not.toBeNull();
    expect(instance.answerFrom(server)).toBe(answer);
  });
});
