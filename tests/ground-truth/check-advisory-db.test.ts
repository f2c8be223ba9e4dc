/**
 * A claim that takes an advisory try-lock, checked with --db on a real PostgreSQL server, one connection per
 * worker (PGlite refuses a session lock: tests/unit/cli-check.test.ts; it plays the transaction-level one,
 * compared with this server step by step in tests/ground-truth/custom-claim.test.ts). The fixtures are good_job's default claim rewritten
 * against runs: a session lock (pg_try_advisory_lock) and a transaction-level one (pg_try_advisory_xact_lock).
 *
 * What the server does, by hand on two connections of our own, is what the check must report: A's session lock
 * outlives its claim's COMMIT, so B's try-lock on run 123 answers false and B takes run 124 (race: safe); A's
 * transaction-level lock ends at that COMMIT, and the claim, which takes running runs too (good_job's candidates
 * are every unfinished job) and re-checks nothing but the id, hands run 123 to B as well (race: a double claim).
 * A crash ends the worker's connection and with it its session locks; a reset between schedules unlocks them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { claimStrategyFromFile } from '../../src/cli/check';
import { PostgresLab } from '../../src/db/postgres-lab';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { clockIso } from '../../src/sim/clock';
import { seedJson } from '../../src/sim/seed';
import { sqlText } from '../../src/sql/registry';
import { simInProcess } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const projectRoot = join(__dirname, '../..');
const SESSION = join(projectRoot, 'tests/fixtures/claims/good-job-advisory.sql');
const XACT = join(projectRoot, 'tests/fixtures/claims/good-job-advisory-xact.sql');
const QUE = join(projectRoot, 'tests/fixtures/claims/que-advisory.sql');
const WAITS = join(projectRoot, 'tests/fixtures/claims/advisory-lock-waits.sql');
const UNLOCK = join(projectRoot, 'tests/fixtures/claims/complete-advisory-unlock.sql');
const race = findScenario('race')!;

interface Report {
  total: number;
  exitCode: number;
  groups: { key: string; count: number; witness: string[] }[];
}

let url: string;
let inspector: pg.Client;

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'check_advisory');
  inspector = new pg.Client({ connectionString: url });
  await inspector.connect();
});

afterAll(async () => {
  await inspector?.end();
});

/** The advisory locks (keyed by one bigint: classid 0, objid the key) held on this database, as 'application:key'. */
async function advisoryLocks(): Promise<string[]> {
  const result = await inspector.query<{ held: string }>(
    `SELECT a.application_name || ':' || l.objid AS held
     FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     ORDER BY 1`,
  );
  return result.rows.map((row) => row.held);
}

describe('an advisory try-lock claim, by hand on two connections of our own', () => {
  it('a session lock outlives the claim’s COMMIT (B takes 124); a transaction-level one does not (B takes 123 too)', async () => {
    const db = await createDatabase(inject('postgresUrl'), 'check_advisory_by_hand');
    const setup = new pg.Client({ connectionString: db });
    await setup.connect();
    await setup.query(sqlText('schema'));
    const [a, b] = [new pg.Client({ connectionString: db }), new pg.Client({ connectionString: db })];
    await Promise.all([a.connect(), b.connect()]);
    try {
      for (const client of [a, b]) await client.query(sqlText('session-setup'));
      const claimed = async (client: pg.Client, file: string, worker: string) => {
        await client.query('BEGIN');
        const result = await client.query<{ run_id: number }>(readFileSync(file, 'utf8'), [worker, 60]);
        await client.query('COMMIT');
        return result.rows.map((row) => row.run_id);
      };
      for (const [file, taken] of [
        [SESSION, 124],
        [QUE, 124],
        [XACT, 123],
      ] as const) {
        await setup.query('TRUNCATE runs');
        await setup.query(sqlText('seed-runs'), [seedJson(race)]);
        for (const client of [a, b]) await client.query(sqlText('set-clock'), [clockIso(0)]);
        expect(await claimed(a, file, 'A')).toEqual([123]);
        expect(await claimed(b, file, 'B')).toEqual([taken]);
        await a.query('SELECT pg_advisory_unlock_all()');
        await b.query('SELECT pg_advisory_unlock_all()');
      }
    } finally {
      await Promise.all([a.end(), b.end(), setup.end()]);
    }
  });
});

describe('check --db with an advisory try-lock claim', () => {
  it(
    'race: the session lock (good_job’s and que’s) is safe in every schedule (exit 0); the transaction-level one claims run 123 twice (exit 1)',
    { timeout: 120_000 },
    async () => {
      // One after the other: the command line in this process prints through the one console.
      for (const claim of [SESSION, QUE]) {
        const session = await simInProcess(['check', 'race', '--claim', claim, '--db', url, '--json']);
        expect(session.stderr).toBe('');
        expect(session.code).toBe(0);
        const safe = JSON.parse(session.stdout) as Report;
        expect(safe.groups.map((group) => [group.key, group.count])).toEqual([['none', safe.total]]);
      }
      const xact = await simInProcess(['check', 'race', '--claim', XACT, '--db', url, '--json']);

      expect(xact.stderr).toBe('');
      expect(xact.code).toBe(1);
      const unsafe = JSON.parse(xact.stdout) as Report;
      const doubles = unsafe.groups.filter((group) => group.key.includes('double-claim:123'));
      expect(doubles.length).toBeGreaterThan(0);
      // The shortest witness of one is the hand-run above: A claims and commits, then B claims run 123.
      expect(doubles.some((group) => group.witness.slice(0, 3).join(',') === 'A,A,B')).toBe(true);
    },
  );

  it('a worker’s session lock stays after its commit, ends with a crash of the worker, and a reset unlocks what is left', { timeout: 60_000 }, async () => {
    const { definition } = await claimStrategyFromFile(SESSION, { onServer: true });
    const lab = await PostgresLab.connect(url, ['A', 'B']);
    try {
      const simulation = new Simulation(lab, race, { strategy: 'naive', fencing: false, definition });
      await simulation.reset();
      await simulation.apply('A');
      await simulation.apply('A');
      expect(await advisoryLocks()).toEqual(['lease_lab_A:123']);
      const [b] = await simulation.apply('B');
      expect(b?.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 124 }] });
      await simulation.apply('B');
      expect(await advisoryLocks()).toEqual(['lease_lab_A:123', 'lease_lab_B:124']);
      await simulation.apply('crash:A');
      expect(await advisoryLocks()).toEqual(['lease_lab_B:124']);
      await simulation.reset();
      expect(await advisoryLocks()).toEqual([]);
    } finally {
      await lab.close();
    }
  });
});

describe('a claim whose advisory lock waits (pg_advisory_lock), and a completion that unlocks, with --db', () => {
  it('by hand: B waits for A’s session lock past A’s commit; A’s completion unlocks it and B claims the run A completed', async () => {
    const db = await createDatabase(inject('postgresUrl'), 'check_advisory_wait_by_hand');
    const setup = new pg.Client({ connectionString: db });
    await setup.connect();
    await setup.query(sqlText('schema'));
    await setup.query(sqlText('seed-runs'), [seedJson(race)]);
    const [a, b] = [new pg.Client({ connectionString: db }), new pg.Client({ connectionString: db })];
    await Promise.all([a.connect(), b.connect()]);
    try {
      for (const client of [a, b]) {
        await client.query(sqlText('session-setup'));
        await client.query(sqlText('set-clock'), [clockIso(0)]);
      }
      const claim = readFileSync(WAITS, 'utf8');
      await a.query('BEGIN');
      expect((await a.query<{ run_id: number; lease_generation: number }>(claim, ['A', 60])).rows).toMatchObject([{ run_id: 123, lease_generation: 18 }]);
      await a.query('COMMIT');
      const bPid = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await b.query('BEGIN');
      const bClaim = b.query<{ run_id: number }>(claim, ['B', 60]);
      bClaim.catch(() => undefined); // awaited below; a failure must not also surface as an unhandled rejection
      // B's backend waits for the advisory lock, and pg_blocking_pids (what the lab reads) names A's. Read as the
      // lab reads it (backend-lock-wait.sql): wait_event_type Lock. pg_blocking_pids names A a moment before B's
      // wait event is set (B is queued for the lock, then sleeps), so blocked alone once read a null wait_event.
      let wait: { wait_event_type: string | null; wait_event: string | null; blocked: boolean } | undefined;
      for (let looks = 0; looks < 2000 && !(wait?.wait_event_type === 'Lock' && wait.blocked); looks++) {
        if (looks > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        const read = await setup.query<NonNullable<typeof wait>>(
          'SELECT wait_event_type, wait_event, cardinality(pg_blocking_pids(pid)) > 0 AS blocked FROM pg_stat_activity WHERE pid = $1',
          [bPid],
        );
        wait = read.rows[0];
      }
      expect(wait).toMatchObject({ wait_event_type: 'Lock', wait_event: 'advisory', blocked: true });
      expect((await a.query(readFileSync(UNLOCK, 'utf8'), [123, 18, 'answer from A'])).rows).toEqual([{ status: 'done', result: 'answer from A' }]);
      expect((await bClaim).rows.map((row) => row.run_id)).toEqual([123]);
      await b.query('COMMIT');
    } finally {
      await Promise.all([a.end(), b.end(), setup.end()]);
    }
  });

  it(
    'check race: B is shown waiting for A’s advisory lock and claims the completed run 123 (exit 1); run shows the wait and the resume',
    { timeout: 120_000 },
    async () => {
      const checked = await simInProcess(['check', 'race', '--claim', WAITS, '--complete', UNLOCK, '--db', url, '--json']);
      expect(checked.stderr).toBe('');
      expect(checked.code).toBe(1);
      const report = JSON.parse(checked.stdout) as Report;
      expect(report.groups.some((group) => group.key.includes('duplicate-execution:123'))).toBe(true);
      const replay = await simInProcess(['run', 'race', '--claim', WAITS, '--complete', UNLOCK, '--db', url, '--schedule', 'A,A,B,A,A,A,B']);
      expect(replay.stderr).toBe('');
      expect(replay.stdout).toMatch(/3 .* B +claim +blocked +B waits: A holds an advisory lock it asks for\./);
      expect(replay.stdout).toMatch(/7 .* B +claim\* +ok +B now owns run 123 with generation 19/);
      // A step of B while it waits names the lock it waits for.
      const stuck = await simInProcess(['run', 'race', '--claim', WAITS, '--complete', UNLOCK, '--db', url, '--schedule', 'A,A,B,B']);
      expect(stuck.stderr).toContain('B cannot move: B is waiting for an advisory lock held by A');
      // A crash ends A's connection and with it the lock: B goes on at once.
      const crash = await simInProcess(['run', 'crash-orphan', '--claim', WAITS, '--complete', UNLOCK, '--db', url, '--schedule', 'A,A,B,crash:A']);
      expect(crash.stderr).toBe('');
      expect(crash.stdout).toMatch(/5 .* B +claim\* +ok +B now owns run 123/);
    },
  );

  it('check race: que’s claim with the completion unlocking its lock is safe in every schedule (exit 0)', { timeout: 120_000 }, async () => {
    const checked = await simInProcess(['check', 'race', '--claim', QUE, '--complete', UNLOCK, '--db', url, '--json']);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const report = JSON.parse(checked.stdout) as Report;
    expect(report.groups.map((group) => [group.key, group.count])).toEqual([['none', report.total]]);
  });
});
