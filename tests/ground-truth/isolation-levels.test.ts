/**
 * What the lesson says about isolation levels, on a real server with two connections: at READ COMMITTED
 * (the level the lab runs at) a waiting UPDATE re-checks the row the first left; at REPEATABLE READ and
 * SERIALIZABLE it fails with 40001 instead; a SKIP LOCKED claim fails the same way there when a row it
 * would lock changed after its snapshot; and in the lab's races, where each statement is a transaction
 * of its own, the level changes nothing. The quiz question q-isolation-level asks exactly this.
 */
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sqlText } from '../../src/sql/registry';
import { type StrategyId, strategyDefinition } from '../../src/strategies';
import { testDatabaseUrl } from './differential';

type Level = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';
const LEASE_SECONDS = 60;

/** The claim statement a strategy runs (for a select-then-update claim: its UPDATE), exactly as the lab runs it. */
function claimText(id: StrategyId): string {
  const claim = strategyDefinition(id).claim;
  return claim.shape === 'one-statement' ? claim.claim.text : claim.update.text;
}

/** The plain read of the select-then-update claims. */
function pendingSelectText(): string {
  const claim = strategyDefinition('naive').claim;
  if (claim.shape !== 'select-then-update') throw new Error('the naive claim reads, then updates');
  return claim.select.text;
}

let url: string;
let a: pg.Client;
let b: pg.Client;

async function session(name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: `isolation_${name}` });
  await client.connect();
  await client.query(sqlText('session-setup'));
  await client.query(sqlText('set-clock'), ['2026-01-01T15:00:00Z']);
  return client;
}

beforeAll(async () => {
  url = await testDatabaseUrl('isolation_levels');
  const setup = await session('setup');
  await setup.query(sqlText('schema'));
  await setup.end();
  a = await session('a');
  b = await session('b');
});

afterAll(async () => {
  await a?.end();
  await b?.end();
});

/** Runs 123 (generation 18) and 124 (generation 3), both pending, 123 the older. */
async function seedRuns(): Promise<void> {
  await a.query('TRUNCATE runs');
  const seed = [
    { run_id: 123, created_at: '2026-01-01T14:50:00Z', lease_generation: 18 },
    { run_id: 124, created_at: '2026-01-01T14:51:00Z', lease_generation: 3 },
  ].map((row) => ({
    tenant: 'acme',
    status: 'pending',
    lease_owner: null,
    lease_expires_at: null,
    heartbeat_at: null,
    cancel_requested: false,
    progress: 0,
    cost_cents: 0,
    result: null,
    ...row,
  }));
  await a.query(sqlText('seed-runs'), [JSON.stringify(seed)]);
}

beforeEach(seedRuns);

/** Waits until `client`'s backend is blocked by a lock (pg_stat_activity), so the test never guesses with a sleep. */
async function blockedOnLock(applicationName: string): Promise<void> {
  for (;;) {
    const { rows } = await a.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE application_name = $1 AND wait_event_type = 'Lock' AND datname = current_database()`,
      [applicationName],
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** B's statement, started while A holds the row, and how it ended once A committed. */
async function afterWaiting(level: Level, sql: string, params: unknown[]): Promise<{ rows: unknown[] } | { sqlstate: string }> {
  await b.query(`BEGIN ISOLATION LEVEL ${level}`);
  await b.query('SELECT 1'); // the snapshot is taken by the transaction's first statement
  const pending = b.query(sql, params).then(
    (result) => ({ rows: result.rows }),
    (error: { code: string }) => ({ sqlstate: error.code }),
  );
  await blockedOnLock('isolation_b');
  await a.query('COMMIT');
  const outcome = await pending;
  await b.query('ROLLBACK');
  return outcome;
}

describe('isolation levels on a real server', () => {
  it.each<[Level, { rows: unknown[] } | { sqlstate: string }]>([
    ['READ COMMITTED', { rows: [] }],
    ['REPEATABLE READ', { sqlstate: '40001' }],
    ['SERIALIZABLE', { sqlstate: '40001' }],
  ])('a compare-and-set UPDATE that waited on the first claim, at %s', async (level, expected) => {
    await a.query('BEGIN');
    await a.query(claimText('cas'), [123, 'A', LEASE_SECONDS]);
    const outcome = await afterWaiting(level, claimText('cas'), [123, 'B', LEASE_SECONDS]);
    // READ COMMITTED re-checks status = 'pending' on A's new row version: 0 rows, B learns it lost.
    expect(outcome).toEqual(expected);
  });

  it('a plain FOR UPDATE claim that waited gets run 124 at READ COMMITTED, and 40001 at REPEATABLE READ', async () => {
    await a.query('BEGIN');
    await a.query(claimText('for-update'), ['A', LEASE_SECONDS]);
    const readCommitted = await afterWaiting('READ COMMITTED', claimText('for-update'), ['B', LEASE_SECONDS]);
    expect(readCommitted).toMatchObject({ rows: [{ run_id: 124 }] });

    await seedRuns();
    await a.query('BEGIN');
    await a.query(claimText('for-update'), ['A', LEASE_SECONDS]);
    const repeatableRead = await afterWaiting('REPEATABLE READ', claimText('for-update'), ['B', LEASE_SECONDS]);
    expect(repeatableRead).toEqual({ sqlstate: '40001' });
  });

  it('a SKIP LOCKED claim at REPEATABLE READ fails with 40001 when the row it would lock changed after its snapshot', async () => {
    await b.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await b.query('SELECT 1');
    await a.query(claimText('skip-locked'), ['A', LEASE_SECONDS]); // commits: run 123 is A's
    const outcome = await b.query(claimText('skip-locked'), ['B', LEASE_SECONDS]).then(
      (result) => ({ rows: result.rows }),
      (error: { code: string }) => ({ sqlstate: error.code }),
    );
    await b.query('ROLLBACK');
    // At READ COMMITTED the same claim would see A's commit and take run 124.
    expect(outcome).toEqual({ sqlstate: '40001' });
  });

  it.each<Level>([
    'READ COMMITTED',
    'REPEATABLE READ',
    'SERIALIZABLE',
  ])("in the lab's naive race each statement is its own transaction, so at %s both UPDATEs succeed", async (level) => {
    for (const client of [a, b]) await client.query(`SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL ${level}`);
    try {
      const seenByA = await a.query(pendingSelectText());
      const seenByB = await b.query(pendingSelectText());
      expect(seenByA.rows[0].run_id).toBe(123);
      expect(seenByB.rows[0].run_id).toBe(123);
      const updatedByA = await a.query(claimText('naive'), [123, 'A', LEASE_SECONDS]);
      const updatedByB = await b.query(claimText('naive'), [123, 'B', LEASE_SECONDS]);
      expect([updatedByA.rowCount, updatedByB.rowCount]).toEqual([1, 1]);
      const row = await a.query('SELECT lease_owner, lease_generation FROM runs WHERE run_id = 123');
      expect(row.rows[0]).toEqual({ lease_owner: 'B', lease_generation: 20 });
    } finally {
      for (const client of [a, b]) await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED');
    }
  });
});
