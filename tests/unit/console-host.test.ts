/**
 * The SQL console on the engine's host, on a real PGlite: what the learner sees at a step, what is
 * refused before it reaches Postgres, what Postgres refuses itself, and that the simulation never notices.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { lostParse, type PGliteLab } from '../../src/db/pglite-lab';
import type { ConsoleValue } from '../../src/db/port';
import { LabHost } from '../../src/webworker/host';
import type { ConsoleResult, LoadRequest } from '../../src/webworker/protocol';

let db: PGliteLab;
beforeAll(async () => {
  db = await bootLabDatabase();
});
afterAll(async () => {
  await db?.close();
});

const threeWorkers = (schedule: string[]): LoadRequest => ({
  type: 'load',
  scenarioId: 'three-workers',
  settings: { strategy: 'skip-locked', fencing: true },
  schedule,
  onInapplicable: 'stop',
});

async function loaded(request: LoadRequest): Promise<LabHost> {
  const host = new LabHost(db);
  await host.load(request);
  return host;
}

function rows(result: ConsoleResult): { columns: string[]; rows: ConsoleValue[][]; rowCount: number } {
  if (result.kind !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(result)}`);
  return result;
}

const ask = (host: LabHost, sql: string, upTo: number, maxRows = 500) => host.console({ type: 'console', sql, upTo, maxRows });

describe('the SQL console on the host', () => {
  it('shows the parked claim and the runs table as they stand after the first claim', async () => {
    const host = await loaded(threeWorkers(['A']));
    const prepared = rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid', 1));
    expect(prepared.rows).toEqual([['lease_lab_A']]);
    // A's claim is not committed: the table still says pending, but the row carries A's transaction in xmax.
    const runs = rows(
      await ask(host, 'SELECT r.run_id, r.status, p.gid AS locked_by FROM runs r LEFT JOIN pg_prepared_xacts p ON r.xmax = p.transaction ORDER BY r.run_id', 1),
    );
    expect(runs.columns).toEqual(['run_id', 'status', 'locked_by']);
    expect(runs.rows).toEqual([
      [123, 'pending', 'lease_lab_A'],
      [124, 'pending', null],
      [125, 'pending', null],
    ]);
    const result = await ask(host, 'SELECT now() AS clock, 9007199254740993::int8 AS big', 1);
    expect(rows(result).rows).toEqual([['2030-01-01 15:00:00+00', '9007199254740993']]);
    expect(result).toMatchObject({ at: { tokens: 1, clockSeconds: 0 } });
  });

  it('goes back with the cursor: the database as it stood before the first step, then at the end again', async () => {
    const host = await loaded(threeWorkers(['A', 'B']));
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid', 0)).rows).toEqual([]);
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid', 1)).rows).toEqual([['lease_lab_A']]);
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid', 2)).rows).toEqual([['lease_lab_A'], ['lease_lab_B']]);
    // Past the end is the end.
    expect(await ask(host, 'SELECT 1', 99)).toMatchObject({ at: { tokens: 2 } });
  });

  it('refuses BEGIN (and other transaction control) without sending anything', async () => {
    const host = await loaded(threeWorkers(['A']));
    const exec = vi.spyOn(db.pg, 'exec');
    const query = vi.spyOn(db.pg, 'query');
    try {
      for (const sql of ['BEGIN', 'COMMIT', "ROLLBACK PREPARED 'lease_lab_A'", 'SELECT 1; SELECT 2', 'LOCK TABLE runs']) {
        const result = await ask(host, sql, 1);
        expect(result.kind, sql).toBe('refused');
      }
      expect(exec).not.toHaveBeenCalled();
      expect(query).not.toHaveBeenCalled();
    } finally {
      exec.mockRestore();
      query.mockRestore();
    }
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts', 1)).rows).toEqual([['lease_lab_A']]);
  });

  it('lets Postgres refuse a write with 25006, and nothing changes', async () => {
    const host = await loaded(threeWorkers(['A']));
    const before = await db.runs();
    const result = await ask(host, "UPDATE runs SET status = 'done' WHERE run_id = 124", 1);
    expect(result).toMatchObject({ kind: 'error', code: '25006', message: 'cannot execute UPDATE in a read-only transaction' });
    expect(await db.runs()).toEqual(before);
    expect(rows(await ask(host, 'SELECT status FROM runs WHERE run_id = 124', 1)).rows).toEqual([['pending']]);
  });

  it('does not hang on a row lock held by a parked worker: FOR UPDATE and writes are refused by Postgres in the read-only transaction', async () => {
    const host = await loaded({
      type: 'load',
      scenarioId: 'lock-wait',
      settings: { strategy: 'for-update', fencing: true },
      schedule: ['A'],
      onInapplicable: 'stop',
    });
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts', 1)).rows).toEqual([['lease_lab_A']]);
    // A statement that waited would never return: the test's own timeout is what a hang would hit.
    for (const sql of [
      'SELECT * FROM runs WHERE run_id = 123 FOR UPDATE',
      'SELECT * FROM runs FOR SHARE',
      'WITH c AS (SELECT run_id FROM runs ORDER BY created_at LIMIT 1 FOR UPDATE) SELECT * FROM c',
      'EXPLAIN ANALYZE SELECT * FROM runs FOR NO KEY UPDATE',
      // Writes to the locked row would wait too; the read-only check comes first.
      'UPDATE runs SET progress = 1 WHERE run_id = 123',
      'DELETE FROM runs WHERE run_id = 123',
      'INSERT INTO runs (run_id, created_at) VALUES (123, now()) ON CONFLICT (run_id) DO UPDATE SET progress = 2',
    ]) {
      expect(await ask(host, sql, 1), sql).toMatchObject({ kind: 'error', code: '25006' });
    }
    // And Postgres is still answering: the parked claim is where it was.
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts', 1)).rows).toEqual([['lease_lab_A']]);
  });

  it("shows Postgres's own error with SQLSTATE and the position in the learner's text", async () => {
    const host = await loaded(threeWorkers([]));
    expect(await ask(host, 'SELECT * FROM runz', 0)).toMatchObject({ kind: 'error', code: '42P01', message: 'relation "runz" does not exist', position: 15 });
    expect(await ask(host, 'SHOW no_such_thing', 0)).toMatchObject({ kind: 'error', code: '42704' });
  });

  // How fast: npm run bench -- robustness ("console answer, 100,000 rows").
  it('sends the first rows and counts the rest, even for 100,000 rows', async () => {
    const host = await loaded(threeWorkers([]));
    const result = rows(await ask(host, 'SELECT g, repeat($$x$$, 3) AS s FROM generate_series(1, 100000) AS g', 0));
    expect(result.rowCount).toBe(100_000);
    expect(result.rows).toHaveLength(500);
    expect(result.rows[499]).toEqual([500, 'xxx']);
  });

  it("leaves the learner's next step exactly as it would have been without the console", async () => {
    const schedule = ['A', 'B', 'C', 'A', 'B', 'C'];
    const reference = await (await loaded(threeWorkers([]))).load(threeWorkers(schedule));

    const host = await loaded(threeWorkers(['A', 'B']));
    const first = await host.load(threeWorkers(['A', 'B']));
    const steps = [...first.steps];
    // At the end, then back at the start, then at the end again, and a refused write in between.
    await ask(host, 'SELECT * FROM runs', 2);
    await ask(host, 'SELECT * FROM pg_locks', 0);
    await ask(host, "UPDATE runs SET status = 'done'", 1);
    await ask(host, 'SELECT txid_current()', 2);
    for (const token of schedule.slice(2)) {
      const applied = await host.apply({ type: 'apply', candidates: [token], fallback: false });
      expect(applied.token).toBe(token);
      steps.push(...applied.steps);
      await ask(host, 'SELECT * FROM pg_prepared_xacts', 1);
    }
    expect(steps).toEqual(reference.steps);
  });

  it('names the divergence when PGlite loses a deeply nested statement (a real server answers 4001), and carries on', async () => {
    const host = await loaded(threeWorkers(['A']));
    const sql = `SELECT ${Array.from({ length: 4_001 }, () => '1').join('+')} AS total`;
    for (const statement of [sql, `EXPLAIN ${sql}`]) {
      const result = await ask(host, statement, 1);
      expect(result, statement.slice(0, 20)).toMatchObject({
        kind: 'error',
        code: '54001',
        message: expect.stringMatching(/nests too deeply .* A real PostgreSQL server parses it/),
      });
      if (result.kind === 'error') expect(result.detail).toMatch(/PGlite's own reply was “(26000|24000) .*divergence/);
    }
    // A statement the wasm's stack holds answers, and the lab's database is as it was.
    expect(rows(await ask(host, `SELECT ${Array.from({ length: 100 }, () => '1').join('+')} AS total`, 1)).rows).toEqual([[100]]);
    expect(rows(await ask(host, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid', 1)).rows).toEqual([['lease_lab_A']]);
    // Postgres's own errors of the same SQLSTATE keep their words.
    const own = { kind: 'error' as const, code: '26000', message: 'prepared statement "p" does not exist', detail: null, hint: null, position: null, ms: 0 };
    expect(lostParse(own)).toBeNull();
  });
});
