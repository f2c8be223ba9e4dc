/**
 * A claim held for the whole job (check --hold-for-job; gue's LockJob then Delete and Done): the SELECT … \gset
 * begins a transaction that stays open while the worker calls the model, and the completion runs in it and
 * commits. On PGlite the transaction is parked (PREPARE TRANSACTION keeps its row lock) and, at the completion,
 * rolled back and begun again holding the same rows (pglite-lab.ts continueClaim); on a server it is one open
 * transaction on the worker's connection, and a crash terminates the backend. Every step from every state of
 * race, and a seeded sample of crash-orphan, step by step equal on PostgreSQL, for:
 * (a) SELECT … FOR UPDATE SKIP LOCKED: safe; after A's crash B takes A's run;
 * (b) a plain SELECT, no lock: both workers find run 123 and both do the job;
 * (c) SELECT … FOR UPDATE: safe, B waits for A's row and, once A's completion commits, takes the other run;
 * (d) the same completed by an UPDATE … RETURNING (kept open with its row, then committed), not a DELETE.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExploredSchedule, exploreSchedules, seededSchedules } from '../../src/engine/enumerate';
import { outcomeOf } from '../../src/engine/explore';
import { heldClaimFromFiles } from '../../src/cli/check';
import { findScenario } from '../../src/scenarios';
import type { Settings } from '../../src/sim/types';
import { compareOnPostgres, compareStateGraph, type Databases, describeDivergences, openDatabases } from './differential';

const root = join(__dirname, '../..');
const COMPLETE = 'tests/fixtures/claims/hold-for-job-complete.sql';

async function settingsOf(file: string, complete: string = COMPLETE): Promise<Settings> {
  const { definition } = await heldClaimFromFiles(join(root, file), join(root, complete));
  return { strategy: 'skip-locked', fencing: false, definition };
}

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('hold_for_job', 2);
});

afterAll(async () => {
  await dbs?.close();
});

const CLAIMS = [
  { name: '(a) FOR UPDATE SKIP LOCKED', file: 'tests/fixtures/claims/hold-for-job-skip-locked.sql', schedules: 70, unsafe: 0 },
  { name: '(b) a plain SELECT', file: 'tests/fixtures/claims/hold-for-job-plain.sql', schedules: 70, unsafe: 68 },
  { name: '(c) FOR UPDATE, waiting', file: 'tests/fixtures/claims/hold-for-job-for-update.sql', schedules: 8, unsafe: 0 },
  {
    name: '(d) FOR UPDATE, waiting, completed by an UPDATE … RETURNING',
    file: 'tests/fixtures/claims/hold-for-job-for-update.sql',
    complete: 'tests/fixtures/claims/hold-for-job-complete-done.sql',
    schedules: 8,
    unsafe: 0,
  },
] as const;

describe('a claim held for the whole job on PGlite and on a real server', () => {
  it.for(CLAIMS)(
    '$name: every step from every state of race equal on the server, and its unsafe schedules counted',
    { timeout: 300_000 },
    async (claim, { signal }) => {
      const scenario = findScenario('race')!;
      const settings = await settingsOf(claim.file, 'complete' in claim ? claim.complete : COMPLETE);
      const every: ExploredSchedule[] = [];
      for await (const explored of exploreSchedules(dbs.pglite, scenario, settings)) every.push(explored);
      expect(every.length).toBe(claim.schedules);
      expect(every.filter(({ trace }) => outcomeOf(trace.anomalies).key !== 'none').length).toBe(claim.unsafe);
      const result = await compareStateGraph(dbs, scenario, settings, signal);
      expect(result.cut).toBe(false);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    },
  );

  it('(a) a seeded sample of crash-orphan step by step equal, and after A crashes holding run 123 B takes it', { timeout: 300_000 }, async ({ signal }) => {
    const scenario = findScenario('crash-orphan')!;
    const settings = await settingsOf(CLAIMS[0].file);
    const sample = await seededSchedules(dbs.pglite, scenario, settings, 20, 7);
    expect(sample.every(({ trace }) => outcomeOf(trace.anomalies).key === 'none')).toBe(true);
    // A crash while holding a run, then another worker's claim of that same run.
    const takenBack = sample.filter(({ trace }) => {
      const crash = trace.steps.findIndex((step) => step.action === 'crash' && step.facts.some((fact) => fact.kind === 'transaction-rolled-back'));
      const held = trace.steps[crash]?.runId;
      return crash >= 0 && trace.steps.slice(crash).some((step) => step.action === 'claim' && step.actor !== trace.steps[crash]!.actor && step.runId === held);
    });
    expect(takenBack.length).toBeGreaterThan(0);
    const result = await compareOnPostgres(dbs.postgres, scenario, settings, sample, signal);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
