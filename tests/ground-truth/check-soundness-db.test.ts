/**
 * Issue 33, defects 4 and 9, on a real PostgreSQL server: the same schedules played with `run --db` give
 * the same findings as on PGlite. A claim that leaves `lease_generation` alone (or sets it to a constant)
 * lets the paused worker's completion commit over the new owner's run: split ownership on both; the lab's
 * recommended claim's duplicate work after a lease ran out is marked as such on both.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
const NO_BUMP = join(projectRoot, 'tests/ground-truth/claim-corpus/12-reclaim-without-generation-bump.sql');
const CONSTANT_GENERATION = join(projectRoot, 'tests/fixtures/claims/reclaim-constant-generation.sql');

let url: string;

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'check_soundness');
});

interface Finding {
  kind: string;
  runId: number;
  workers: string[];
  steps: number[];
  leaseRanOut?: boolean;
}

async function findings(db: string, scenario: string, claim: string, schedule: string, fencing = 'on'): Promise<Finding[]> {
  const { code, stdout, stderr } = await simInProcess(['run', scenario, '--claim', claim, '--fencing', fencing, '--schedule', schedule, '--db', db, '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { anomalies: Finding[] }).anomalies.map(({ kind, runId, workers, steps, leaseRanOut }) => ({
    kind,
    runId,
    workers,
    steps,
    ...(leaseRanOut ? { leaseRanOut } : {}),
  }));
}

describe('the same findings on PostgreSQL as on PGlite', () => {
  it.each([
    ['a claim that leaves the generation alone, fencing on', 'paused-worker', NO_BUMP, 'A,A,A,+10,+51,B,B,B,+40,A,B', 'on', 'split-ownership'],
    ['a claim that leaves the generation alone, fencing off', 'paused-worker', NO_BUMP, 'A,A,A,+10,+51,B,B,B,+40,A,B', 'off', 'split-ownership'],
    ['a claim that sets the generation to a constant', 'paused-worker', CONSTANT_GENERATION, 'A,A,A,+10,+51,B,B,B,+40,A,B', 'on', 'split-ownership'],
    ["the lab's claim in paused-worker", 'paused-worker', SKIP_LOCKED, 'A,A,+10,+51,B,B,B,+40,A,B', 'on', 'duplicate-execution'],
    ["the lab's claim in heartbeat", 'heartbeat', SKIP_LOCKED, 'A,A,A,+30,+30,+30,B,B,B,A,B,B,B', 'on', 'duplicate-execution'],
  ])('%s', { timeout: 240_000 }, async (_, scenario, claim, schedule, fencing, kind) => {
    const onServer = await findings(url, scenario, claim, schedule, fencing);
    const onPglite = await findings('pglite', scenario, claim, schedule, fencing);
    expect(onServer).toEqual(onPglite);
    const found = onServer.find((finding) => finding.kind === kind);
    expect(found).toBeDefined();
    // The lab's claim bumps the generation: the paused worker's writes are rejected, its work was duplicate work after expiry.
    if (claim === SKIP_LOCKED) expect(found?.leaseRanOut).toBe(true);
    else expect(found?.workers).toEqual(['A', 'B']);
  });
});
