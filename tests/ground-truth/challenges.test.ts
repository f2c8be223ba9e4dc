/**
 * The challenges on a real PostgreSQL server, one connection per worker: each challenge's winning schedule
 * plays the same on the server as on PGlite, and the judge, reading the server's trace, calls it won. So a
 * puzzle the lab says you solved is one a real Postgres would have let you solve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedule } from '../../src/engine/run';
import { CHALLENGES } from '../../src/lessons/challenges';
import { findScenario } from '../../src/scenarios';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, playUntilRefused } from './differential';

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('challenges');
});

afterAll(async () => {
  await dbs?.close();
});

describe('every challenge is won the same way on PostgreSQL', () => {
  it.each(CHALLENGES.map((c) => [c.id, c] as const))('%s', async (_, challenge) => {
    const scenario = findScenario(challenge.scenarioId)!;
    const pglite = await runSchedule(dbs.pglite, scenario, challenge.settings, challenge.solution, { onInapplicable: 'error' });
    const result = await compareOnPostgres(dbs.postgres, scenario, challenge.settings, [{ schedule: challenge.solution, trace: pglite }]);
    expect(result.schedules).toBe(1);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    const server = await playUntilRefused(dbs.postgres[0]!, scenario, challenge.settings, challenge.solution);
    expect(server.refused).toBeNull();
    expect(server.trace.database).toBe('postgres');
    const judgement = challenge.judge(server.trace);
    expect(judgement.won, judgement.message).toBe(true);
  });
});
