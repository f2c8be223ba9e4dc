/**
 * `npm run sim -- run … --isolation LEVEL --db URL` on the test server (PostgreSQL 15): what each level
 * really does to the claims where it changes the answer, played by the lab's workers with one connection
 * each. At REPEATABLE READ the naive and the compare-and-set claim's UPDATE waits for A, then fails 40001
 * where READ COMMITTED claims run 123 twice or matches 0 rows; a claim of one's own that re-checks a row it
 * waited for does the same; the worker rolls back at its next step and claims again. The atomic SKIP LOCKED
 * claim, whose snapshot is its own statement's, answers as at READ COMMITTED. The heavy ones (every
 * schedule on the server) run in the full ground truth only.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Trace, TraceStep } from '../../src/sim/types';
import { projectRoot, simInProcess } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const FULL = process.env.GROUND_TRUTH === 'full';
const CONCURRENT_UPDATE = 'could not serialize access due to concurrent update';
/** Corpus 04: a finder without a lock, so only the UPDATE waits, and READ COMMITTED re-checks the row it waited for. */
const CTE_WITHOUT_LOCK = join(projectRoot, 'tests/ground-truth/claim-corpus/04-cte-without-lock.sql');

let url: string;

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'isolation_cli');
});

async function trace(...args: string[]): Promise<Trace> {
  const { code, stdout, stderr } = await simInProcess(['run', ...args, '--db', url, '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return JSON.parse(stdout) as Trace;
}

/** Each of the worker's steps in order, as "action verdict-or-SQLSTATE", a resumed one marked with `*`. */
function story(steps: readonly TraceStep[], worker: string): string[] {
  return steps
    .filter((step) => step.actor === worker)
    .map((step) => `${step.action}${step.resumed ? '*' : ''} ${step.outcome?.status === 'error' ? step.outcome.code : step.verdict}`);
}

function kinds(run: Trace): string[] {
  return [...new Set(run.anomalies.map((anomaly) => anomaly.kind))].sort();
}

/** B's failed step and the rollback after it, as the trace carries them. */
function failureAndRollback(run: Trace): [TraceStep, TraceStep] {
  const failed = run.steps.findIndex((step) => step.actor === 'B' && step.outcome?.status === 'error');
  expect(failed).toBeGreaterThan(-1);
  const rollback = run.steps.slice(failed + 1).find((step) => step.actor === 'B')!;
  return [run.steps[failed]!, rollback];
}

describe('the naive and the compare-and-set claim, whose SELECT and UPDATE share one transaction above READ COMMITTED', () => {
  it.each(['repeatable-read', 'serializable'])(
    "naive at %s: B's UPDATE waits for A, fails 40001, B rolls back and claims run 124",
    { timeout: 120_000 },
    async (level) => {
      const run = await trace('race', '--schedule', 'A,B,A,B,A,B,B,B', '--isolation', level);
      expect(story(run.steps, 'B').slice(0, 5)).toEqual(['select ok', 'naive-update blocked', 'naive-update* 40001', 'rollback ok', 'select ok']);
      const [failed, rollback] = failureAndRollback(run);
      expect(failed.outcome).toEqual({ status: 'error', code: '40001', message: CONCURRENT_UPDATE });
      // The error arrives with A's commit (the token that woke it); the rollback is B's next step, a real ROLLBACK.
      expect(failed.token).toBe('A');
      expect(rollback).toMatchObject({ action: 'rollback', sqlId: 'transaction-rollback', sql: 'ROLLBACK', outcome: { status: 'ok' } });
      expect(rollback.workers.find((worker) => worker.id === 'B')).toMatchObject({ phase: 'ready', claimAttempts: 1 });
      expect(run.steps.find((step) => step.actor === 'B' && step.index > rollback.index)?.outcome).toMatchObject({ rows: [{ run_id: 124 }] });
      expect(run.anomalies).toEqual([]);
      expect(run.finalRuns.map((row) => [row.run_id, row.lease_owner, row.status])).toEqual([
        [123, 'A', 'done'],
        [124, 'B', 'done'],
      ]);
    },
  );

  it('naive, the same schedule at READ COMMITTED: both claim run 123', async () => {
    const run = await trace('race', '--schedule', 'A,B,A,B,A,B,B,B');
    expect(story(run.steps, 'B').slice(0, 2)).toEqual(['select ok', 'naive-update ok']);
    expect(kinds(run)).toContain('double-claim');
  });

  it("compare-and-set: 0 rows at READ COMMITTED; at REPEATABLE READ B's UPDATE waits, then 40001", { timeout: 120_000 }, async () => {
    const readCommitted = await trace('race', '--strategy', 'cas', '--schedule', 'A,B,A,B');
    expect(readCommitted.steps.find((step) => step.actor === 'B' && step.action === 'cas-claim')?.outcome).toEqual({ status: 'ok', rows: [], rowCount: 0 });
    const repeatable = await trace('race', '--strategy', 'cas', '--schedule', 'A,B,A,B,A,B,B,B', '--isolation', 'repeatable-read');
    expect(story(repeatable.steps, 'B').slice(0, 4)).toEqual(['select ok', 'cas-claim blocked', 'cas-claim* 40001', 'rollback ok']);
    expect(failureAndRollback(repeatable)[0].outcome).toEqual({ status: 'error', code: '40001', message: CONCURRENT_UPDATE });
    expect(repeatable.anomalies).toEqual([]);
  });
});

describe('one-statement claims in an explicit transaction', () => {
  it('a claim of your own that re-checks the row it waited for: a double claim at READ COMMITTED, 40001 and a retry at REPEATABLE READ', async () => {
    const readCommitted = await trace('race', '--claim', CTE_WITHOUT_LOCK, '--schedule', 'A,B,A');
    expect(story(readCommitted.steps, 'B').slice(0, 2)).toEqual(['claim blocked', 'claim* ok']);
    expect(kinds(readCommitted)).toContain('double-claim');
    const repeatable = await trace('race', '--claim', CTE_WITHOUT_LOCK, '--schedule', 'A,B,A,B,B', '--isolation', 'repeatable-read');
    expect(story(repeatable.steps, 'B').slice(0, 4)).toEqual(['claim blocked', 'claim* 40001', 'rollback ok', 'claim ok']);
    expect(repeatable.steps.filter((step) => step.actor === 'B' && step.action === 'claim').at(-1)?.outcome).toMatchObject({ rows: [{ run_id: 124 }] });
    expect(repeatable.anomalies).toEqual([]);
  });

  it('the plain FOR UPDATE claim that waited: run 124 at READ COMMITTED, 40001 at REPEATABLE READ', async () => {
    const readCommitted = await trace('lock-wait', '--strategy', 'for-update', '--schedule', 'A,B,A');
    expect(story(readCommitted.steps, 'B').slice(0, 2)).toEqual(['claim blocked', 'claim* ok']);
    const repeatable = await trace('lock-wait', '--strategy', 'for-update', '--schedule', 'A,B,A,B,B', '--isolation', 'repeatable-read');
    expect(story(repeatable.steps, 'B').slice(0, 4)).toEqual(['claim blocked', 'claim* 40001', 'rollback ok', 'claim ok']);
  });

  it('the atomic SKIP LOCKED claim takes its snapshot with its own statement, so REPEATABLE READ answers as READ COMMITTED does', async () => {
    const readCommitted = await trace('race', '--strategy', 'skip-locked');
    const repeatable = await trace('race', '--strategy', 'skip-locked', '--isolation', 'repeatable-read');
    for (const worker of ['A', 'B']) expect(story(repeatable.steps, worker)).toEqual(story(readCommitted.steps, worker));
    expect(repeatable.finalRuns).toEqual(readCommitted.finalRuns);
  });
});

describe('SERIALIZABLE', () => {
  it("three atomic claims: the server fails B's and C's COMMIT 40001 (read/write dependencies), and they claim again", async () => {
    const run = await trace('three-workers', '--strategy', 'skip-locked', '--isolation', 'serializable');
    expect(story(run.steps, 'A').slice(0, 2)).toEqual(['claim ok', 'commit ok']);
    expect(story(run.steps, 'B').slice(0, 3)).toEqual(['claim ok', 'commit 40001', 'claim ok']);
    const failedCommit = run.steps.find((step) => step.actor === 'B' && step.action === 'commit')!;
    expect(failedCommit.outcome).toEqual({
      status: 'error',
      code: '40001',
      message: 'could not serialize access due to read/write dependencies among transactions',
    });
    // No rollback step: a COMMIT that fails has ended the transaction, and the claim it held is gone.
    expect(failedCommit.workers.find((worker) => worker.id === 'B')).toMatchObject({ phase: 'ready', runId: null, claimAttempts: 1 });
    expect(run.anomalies).toEqual([]);
    expect(run.finalRuns.map((row) => row.status)).toEqual(['done', 'done', 'done']);
  });
});

describe.runIf(FULL)('every schedule on the server (full ground truth)', () => {
  it('explore race --isolation repeatable-read --db: no schedule ends in an anomaly', { timeout: 600_000 }, async () => {
    const { code, stdout } = await simInProcess(['explore', 'race', '--isolation', 'repeatable-read', '--db', url, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { coverage: string; groups: { key: string }[]; settings: { isolation?: string } };
    expect(result.coverage).toBe('all');
    expect(result.settings.isolation).toBe('repeatable-read');
    expect(result.groups.map((group) => group.key)).toEqual(['none']);
  });

  it('check race --claim corpus-04 --db: unsafe at READ COMMITTED (exit 1), safe at REPEATABLE READ (exit 0)', { timeout: 600_000 }, async () => {
    const readCommitted = await simInProcess(['check', 'race', '--claim', CTE_WITHOUT_LOCK, '--db', url]);
    expect(readCommitted.code).toBe(1);
    const repeatable = await simInProcess([
      'check',
      'race',
      '--claim',
      CTE_WITHOUT_LOCK,
      '--isolation',
      'repeatable-read',
      '--max-states',
      '20000',
      '--db',
      url,
    ]);
    expect(repeatable.stderr).toBe('');
    expect(repeatable.code).toBe(0);
    expect(repeatable.stdout).toContain('isolation REPEATABLE READ');
    expect(repeatable.stdout).toContain('--isolation repeatable-read --db URL');
    // The analyzer's reading of the claim is READ COMMITTED's; the report says what this level changes.
    expect(repeatable.stdout).toMatch(
      /^claim: .*\n\(that reading is READ COMMITTED's: at REPEATABLE READ an UPDATE or a locking read whose row .* fails 40001/m,
    );
    expect(readCommitted.stdout).not.toContain("that reading is READ COMMITTED's");
  });
});
