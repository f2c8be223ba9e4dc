/**
 * The traces the page shows recorded on PostgreSQL (src/recordings/*.json) are recorded again here, on the
 * server the tests start, and must be PostgreSQL's answer still: the same steps (statements as run, the
 * server's outcomes and errors, the workers and rows after each), schedule, start and anomalies. The
 * server's major version must be the file's; its minor version may be newer. Nothing in a recording is a
 * time of the wall clock, so the comparison is exact.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresLab } from '../../src/db/postgres-lab';
import { recordPlan } from '../../src/engine/record';
import { RECORDING_PLANS } from '../../src/recordings';
import { recording } from '../../src/recordings/files';
import { findScenario } from '../../src/scenarios';
import { createDatabase } from '../support/postgres-server';

let url: string;
const labs: PostgresLab[] = [];

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'recordings');
});

afterAll(async () => {
  await Promise.all(labs.map((lab) => lab.close()));
});

const major = (version: string) => version.split('.')[0];

describe('each recording the page shows is what PostgreSQL answers today', () => {
  it.each(RECORDING_PLANS.map((plan) => [plan.id, plan] as const))('%s', { timeout: 120_000 }, async (_id, plan) => {
    const committed = recording(plan.id);
    const lab = await PostgresLab.connect(
      url,
      findScenario(plan.scenarioId)!.workers.map((worker) => worker.id),
      { schema: 'own' },
    );
    labs.push(lab);
    const again = await recordPlan(lab, plan, inject('postgresVersion'));
    expect(major(again.serverVersion)).toBe(major(committed.serverVersion));
    expect(again.settings).toEqual(committed.settings);
    expect(again.initialRuns).toEqual(committed.initialRuns);
    expect(again.initialWorkers).toEqual(committed.initialWorkers);
    expect(again.schedule).toEqual(committed.schedule);
    // Step by step, so a difference names the first step where PostgreSQL answered otherwise.
    for (const [index, step] of again.steps.entries()) expect({ index, step }).toEqual({ index, step: committed.steps[index] });
    expect(again.steps).toHaveLength(committed.steps.length);
    expect(again.anomalies).toEqual(committed.anomalies);
  });
});
