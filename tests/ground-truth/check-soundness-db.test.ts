/**
 * Issue 33, defects 4, 5, 6 and 9, on a real PostgreSQL server: the same schedules played with `run --db` give
 * the same findings as on PGlite. A claim that leaves `lease_generation` alone (or sets it to a constant)
 * lets the paused worker's completion commit over the new owner's run: split ownership on both; the lab's
 * recommended claim's duplicate work after a lease ran out is marked as such on both. A claim that takes
 * pending runs only strands a crashed worker's run on both (the end-of-schedule probe runs the claim on the
 * server too), and a lease's expiry instant is the claim's to take on both.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
const NO_BUMP = join(projectRoot, 'tests/ground-truth/claim-corpus/12-reclaim-without-generation-bump.sql');
const CONSTANT_GENERATION = join(projectRoot, 'tests/fixtures/claims/reclaim-constant-generation.sql');
const PENDING_ONLY = join(projectRoot, 'tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql');
const ATOMIC = join(projectRoot, 'tests/ground-truth/claim-corpus/01-atomic-skip-locked.sql');
const AT_EXPIRY = join(projectRoot, 'tests/fixtures/claims/reclaim-at-expiry.sql');
const ONE_SECOND_EARLY = join(projectRoot, 'tests/fixtures/claims/reclaim-one-second-early.sql');

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

/** The schedule played as given (no finishing steps): the findings, and what the last step's claim got back. */
async function played(db: string, claim: string, schedule: string): Promise<{ took: number[]; found: { kind: string; runId: number; message: string }[] }> {
  const { code, stdout, stderr } = await simInProcess([
    'run',
    'crash-orphan',
    '--claim',
    claim,
    '--schedule',
    schedule,
    '--finish',
    'none',
    '--db',
    db,
    '--json',
  ]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const trace = JSON.parse(stdout) as {
    anomalies: { kind: string; runId: number; message: string }[];
    steps: { outcome: { rows?: { run_id: number }[] } | null }[];
  };
  return {
    took: (trace.steps.at(-1)?.outcome?.rows ?? []).map((row) => row.run_id),
    found: trace.anomalies.map(({ kind, runId, message }) => ({ kind, runId, message })),
  };
}

describe('a stranded run and the expiry instant: the same on PostgreSQL as on PGlite (issue 33 defects 5 and 6)', () => {
  it.each([
    [
      "a claim of pending runs only: crashed A's run is stranded, though no claim ran after its lease expired",
      PENDING_ONLY,
      'A,A,B,B,B,crash:A,+30,+31',
      ['stranded-run'],
    ],
    ["the lab's atomic claim takes it back: nothing stranded", ATOMIC, 'A,A,B,B,B,crash:A,+30,+31', []],
    ['lease_expires_at <= now() takes the run at the instant the lease ends: no double claim', AT_EXPIRY, 'A,A,A,+60,B', []],
    ['lease_expires_at <= now() + 1 s takes it with 1 s left: a double claim', ONE_SECOND_EARLY, 'A,A,A,+59,B', ['double-claim']],
  ])('%s', { timeout: 240_000 }, async (_, claim, schedule, kinds) => {
    const onServer = await played(url, claim, schedule);
    expect(onServer).toEqual(await played('pglite', claim, schedule));
    expect(onServer.found.map((finding) => finding.kind)).toEqual(kinds);
    if (claim === AT_EXPIRY || claim === ONE_SECOND_EARLY) expect(onServer.took).toEqual([123]);
  });

  // Every schedule of crash-orphan on the server: in the full ground truth (GROUND_TRUTH=full, what CI runs). The
  // atomic claim takes the dead worker's run back at each end where it is left: the probe's open transaction
  // ends as a crash ends one, and the next schedule's reset opens the operator's connection again.
  it.runIf(process.env.GROUND_TRUTH === 'full').each([
    ['the pending-only claim exits 1 on its stranded runs', PENDING_ONLY, 1, { key: 'stranded-run:123', count: 175, unsafe: true }],
    ["the lab's atomic claim exits 0, nothing stranded", ATOMIC, 0, { key: 'none', count: 821, unsafe: false }],
  ])("check crash-orphan --db gives PGlite's groups: %s", { timeout: 900_000 }, async (_, claim, exitCode, group) => {
    const groups = async (db: string) => {
      const { code, stdout } = await simInProcess(['check', 'crash-orphan', '--claim', claim, '--db', db, '--json']);
      expect(code).toBe(exitCode);
      return (JSON.parse(stdout) as { groups: { key: string; count: number; unsafe: boolean }[] }).groups.map(({ key, count, unsafe }) => ({
        key,
        count,
        unsafe,
      }));
    };
    const onServer = await groups(url);
    expect(onServer).toEqual(await groups('pglite'));
    expect(onServer).toContainEqual(group);
  });
});
