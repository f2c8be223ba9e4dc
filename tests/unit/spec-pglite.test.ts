/**
 * `npm run sim -- spec FILE.spec` without --db: the spec's sessions emulated on one PGlite. PostgreSQL's own
 * row-locking specs (tests/fixtures/postgres-isolation/) run here and every permutation PGlite follows must
 * print exactly what PostgreSQL's expected/NAME.out prints for it; one PGlite cannot follow is refused with
 * one line naming the step and why, never guessed. The counts below are the README's table ("Check your own
 * schema and sessions"). Exit codes: 0 all followed and every check held, 1 a check broke, 2 some refused.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';

const fixtures = join(projectRoot, 'tests/fixtures/postgres-isolation');
const specs = readdirSync(join(fixtures, 'specs'))
  .filter((name) => name.endsWith('.spec'))
  .map((name) => name.replace(/\.spec$/, ''))
  .sort();

interface Report {
  database: { kind: string };
  permutations: { steps: string[]; output: string; refused: string | null; invalid: string | null }[];
  exitCode: number;
}

/** expected/NAME.out cut into its permutations, by their step names. */
function expectedPermutations(name: string): Map<string, string> {
  const text = readFileSync(join(fixtures, 'expected', `${name}.out`), 'utf8');
  const parts = text.split(/(?=\nstarting permutation: )/).slice(1);
  return new Map(parts.map((part) => [part.match(/^\nstarting permutation: (.*)\n/)![1]!, part]));
}

/** What the README's table says per spec: permutations, equal, refused (and why), different. */
const TABLE: Record<string, { permutations: number; equal: number; refused: number; reasons: RegExp[] }> = {
  'lock-committed-update': {
    permutations: 24,
    equal: 4,
    refused: 20,
    reasons: [
      /^step s2l waited while another session committed writes/,
      /^step s1u locks or writes rows while step s2l waits for an advisory lock/,
      /^step s2b2: its transaction runs at REPEATABLE READ, whose snapshot must outlive other sessions' commits/,
      /^step s2b3: its transaction runs at SERIALIZABLE, whose snapshot must outlive other sessions' commits/,
    ],
  },
  nowait: { permutations: 6, equal: 6, refused: 0, reasons: [] },
  'nowait-2': { permutations: 3, equal: 3, refused: 0, reasons: [] },
  'nowait-3': { permutations: 1, equal: 1, refused: 0, reasons: [] },
  'nowait-4': {
    permutations: 1,
    equal: 0,
    refused: 1,
    reasons: [/^step s2b locks or writes rows while step s1a waits for an advisory lock/],
  },
  'nowait-5': {
    permutations: 1,
    equal: 0,
    refused: 1,
    reasons: [/^step sl1_prep: Prepare statements inside a session/],
  },
  'lock-update-traversal': {
    permutations: 3,
    equal: 0,
    refused: 3,
    reasons: [/^step s1b: its transaction runs at REPEATABLE READ, whose snapshot must outlive other sessions' commits/],
  },
  'skip-locked': { permutations: 20, equal: 20, refused: 0, reasons: [] },
  'skip-locked-2': { permutations: 3, equal: 3, refused: 0, reasons: [] },
  'skip-locked-3': { permutations: 1, equal: 1, refused: 0, reasons: [] },
  'tuplelock-partition': {
    permutations: 2,
    equal: 0,
    refused: 2,
    reasons: [/^step s1update_(no)?key: INSERT … ON CONFLICT DO UPDATE: a wait for the conflicting row's lock is one the lab does not probe/],
  },
  'tuplelock-update': {
    permutations: 1,
    equal: 0,
    refused: 1,
    reasons: [/^step s3_update would wait while step s2_update waits too/],
  },
};

const tally: string[] = [];

describe("PostgreSQL's row-locking isolation specs on PGlite", () => {
  it.each(specs)('%s: every permutation PGlite follows prints what PostgreSQL expects; the rest are refused, one line each', async (name) => {
    const answer = await simInProcess(['spec', join(fixtures, 'specs', `${name}.spec`), '--json']);
    const report = JSON.parse(answer.stdout) as Report;
    expect(report.database.kind).toBe('pglite');
    const expected = expectedPermutations(name);
    let equal = 0;
    let different = 0;
    const refused: string[] = [];
    for (const permutation of report.permutations) {
      if (permutation.refused !== null) {
        expect(permutation.refused).not.toContain('\n');
        expect(permutation.refused).toMatch(/^(step|session) .*; run it on a server with --db postgres:\/\/…$/);
        refused.push(permutation.refused);
        continue;
      }
      const want = expected.get(permutation.steps.join(' '));
      expect(want, `expected/${name}.out has permutation ${permutation.steps.join(' ')}`).toBeDefined();
      if (permutation.output === want) equal += 1;
      else {
        different += 1;
        // Shows the diff.
        expect(permutation.output).toBe(want);
      }
    }
    tally.push(`${name}: ${report.permutations.length} permutations, ${equal} equal, ${refused.length} refused, ${different} different`);
    expect(different).toBe(0);
    const row = TABLE[name]!;
    expect({ permutations: report.permutations.length, equal, refused: refused.length }).toEqual({
      permutations: row.permutations,
      equal: row.equal,
      refused: row.refused,
    });
    for (const reason of refused)
      expect(
        row.reasons.some((pattern) => pattern.test(reason)),
        reason,
      ).toBe(true);
    expect(answer.code).toBe(refused.length > 0 ? 2 : 0);
  });
});

describe("Check your own claim: the lab's claims as specs (docs/examples/), on PGlite", () => {
  const example = (name: string) => join(projectRoot, 'docs/examples', name);

  it('the naive claim (find, then claim in a second statement) breaks the check: exit 1, the shortest order printed', async () => {
    const answer = await simInProcess(['spec', example('claim-naive.spec')]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('broken in 4 of 6; the shortest: --permutation "a_poll b_poll a_claim b_claim"');
    expect(answer.stdout).toContain('run_id|lease_generation\n------+----------------\n   123|              19\n(1 row)\n');
    expect(answer.stdout.trimEnd().endsWith('BROKEN: no run claimed twice (exit 1)')).toBe(true);
  });

  it('the atomic claim (find and take in one statement, FOR UPDATE SKIP LOCKED) keeps the same check in every order: exit 0', async () => {
    const answer = await simInProcess(['spec', example('claim-atomic.spec'), '--json']);
    expect(answer.code).toBe(0);
    const report = JSON.parse(answer.stdout) as Report;
    expect(report.database.kind).toBe('pglite');
    expect(report.permutations).toHaveLength(6);
    expect(report.permutations.every((p) => p.refused === null)).toBe(true);
    // While A's transaction holds run 123, B's claim passes over it and takes run 124.
    const overlapping = report.permutations.find((p) => p.steps.join(' ') === 'a_claim b_claim a_commit b_commit')!;
    expect(overlapping.output).toContain('step a_claim: WITH');
    expect(overlapping.output).toMatch(/step b_claim: [^\n]*\nrun_id\|lease_generation\n------\+----------------\n {3}124\| {15}4\n/);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-spec-pglite-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const TABLE_SETUP =
  "setup { CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL); INSERT INTO foo VALUES (1, 'x'), (2, 'y'); }\nteardown { DROP TABLE foo; }\n";

describe('spec on PGlite: exit codes and one-line refusals', () => {
  it('a spec PGlite follows: the tester text, exit 0, nothing on stderr', async () => {
    const answer = await simInProcess(['spec', join(fixtures, 'specs', 'nowait-3.spec')]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toBe(readFileSync(join(fixtures, 'expected', 'nowait-3.out'), 'utf8'));
  });

  it('--json records each step as it ran: who waited, which step ended the wait, its rows, its error with the SQLSTATE', async () => {
    const spec = file(
      'wait-record.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { SELECT data FROM foo WHERE id = 1 FOR UPDATE; } step a2 { COMMIT; }
session b step b1 { SELECT id FROM foo WHERE id = 1 FOR UPDATE; } step b2 { SELECT 1/0; }
permutation a1 b1 a2 b2
`,
    );
    const answer = await simInProcess(['spec', spec, '--json']);
    expect(answer.code).toBe(0);
    const [permutation] = (JSON.parse(answer.stdout) as Report & { permutations: { trace: unknown }[] }).permutations;
    expect(permutation!.output).toContain('step b1: SELECT id FROM foo WHERE id = 1 FOR UPDATE; <waiting ...>\nstep a2: COMMIT;\nstep b1: <... completed>\n');
    const step = { waited: false, releasedBy: null, returned: true, results: [], error: null };
    expect(permutation!.trace).toEqual([
      { ...step, session: 'a', step: 'a1', sql: 'SELECT data FROM foo WHERE id = 1 FOR UPDATE;', results: [{ columns: ['data'], rows: [['x']] }] },
      {
        ...step,
        session: 'b',
        step: 'b1',
        sql: 'SELECT id FROM foo WHERE id = 1 FOR UPDATE;',
        waited: true,
        releasedBy: 'a2',
        results: [{ columns: ['id'], rows: [['1']] }],
      },
      { ...step, session: 'a', step: 'a2', sql: 'COMMIT;' },
      { ...step, session: 'b', step: 'b2', sql: 'SELECT 1/0;', error: { code: '22012', message: 'division by zero' } },
    ]);
  });

  it('a check broken in a permutation PGlite follows: exit 1 with the shortest permutation', async () => {
    const spec = file(
      'lost-update.spec',
      `${TABLE_SETUP}check "data changed once" { SELECT id FROM foo WHERE data NOT IN ('x', 'y', 'x!') }
session a step a_read { SELECT data FROM foo WHERE id = 1; } step a_write { UPDATE foo SET data = 'x!' WHERE id = 1; }
session b step b_write { UPDATE foo SET data = data || '!' WHERE id = 1; }
`,
    );
    const answer = await simInProcess(['spec', spec, '--permutation', 'b_write a_write', '--permutation', 'a_write b_write']);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('BROKEN: data changed once (exit 1)');
    expect(answer.stdout).toContain('the shortest: --permutation "a_write b_write"');
  });

  it.each([
    [
      'REPEATABLE READ',
      'setup { BEGIN ISOLATION LEVEL REPEATABLE READ; } step a1 { SELECT * FROM foo; }',
      /^session a's setup or teardown: its transaction runs at REPEATABLE READ/,
    ],
    [
      'a transaction-level advisory lock',
      'step a1 { SELECT pg_advisory_xact_lock(1); }',
      /^step a1: it calls pg_advisory_xact_lock\(\): a transaction-level advisory lock goes with the transaction the lab parks/,
    ],
    ['LISTEN', 'step a1 { LISTEN jobs; }', /^step a1: LISTEN\/NOTIFY/],
    ['a savepoint', 'setup { BEGIN; } step a1 { SAVEPOINT x; }', /^step a1: SAVEPOINT inside a session/],
    ['LOCK TABLE', 'setup { BEGIN; } step a1 { LOCK TABLE foo; }', /^step a1: LOCK TABLE/],
    [
      'INSERT … ON CONFLICT DO UPDATE',
      "step a1 { INSERT INTO foo VALUES (1, 'z') ON CONFLICT (id) DO UPDATE SET data = 'z'; }",
      /^step a1: INSERT … ON CONFLICT DO UPDATE/,
    ],
    ['SET', 'step a1 { SET work_mem = 1024; }', /^step a1: SET and SHOW act on the one PGlite backend/],
    ['set_config()', "step a1 { SELECT set_config('lab.found', '1', false); }", /^step a1: it calls set_config\(\): settings are the one PGlite backend's/],
  ])('%s is refused: one line naming the step and why, exit 2, JSON valid', async (_what, session, reason) => {
    const spec = file('refused.spec', `${TABLE_SETUP}session a ${session}\n`);
    const text = await simInProcess(['spec', spec]);
    expect(text.code).toBe(2);
    expect(text.stderr.split('\n')).toHaveLength(2);
    expect(text.stderr).toMatch(/^lease-lab: refused on PGlite: /);
    expect(text.stderr.replace(/^lease-lab: refused on PGlite: /, '')).toMatch(reason);
    expect(text.stderr).toContain('run it on a server with --db postgres://…');
    const json = await simInProcess(['spec', spec, '--json']);
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout) as Report & { refusedCount: number };
    expect(report.refusedCount).toBe(1);
    expect(report.permutations[0]!.refused).toMatch(reason);
  });

  it("session advisory locks: the lab keeps each session's, so a request another session holds waits (re-entrant, shared against exclusive, across a replayed transaction); what one backend cannot follow is refused", async () => {
    // tests/ground-truth/postgres-isolation.test.ts requires every permutation followed here to print what PostgreSQL 15 prints.
    const answer = await simInProcess(['spec', join(projectRoot, 'tests/fixtures/specs/advisory-locks.spec'), '--json']);
    expect(answer.code).toBe(2);
    const [reentrant, shared, replayed, twoKeys, tried, released, all, several, rowsBeforeWait] = (JSON.parse(answer.stdout) as Report).permutations;
    for (const permutation of [reentrant, shared, replayed, twoKeys]) expect(permutation!.refused).toBeNull();
    const unlocked = 'step a_unlock: SELECT pg_advisory_unlock(7);\npg_advisory_unlock\n------------------\nt                 \n(1 row)\n\n';
    const completed = 'step b_lock: <... completed>\ndata\n----\nx   \n(1 row)\n';
    // b's request waits until a has let go as often as it took: after the second unlock, not the first.
    expect(reentrant!.output).toContain(`<waiting ...>\n${unlocked}${unlocked}${completed}`);
    expect(shared!.output).toContain(`<waiting ...>\nstep a_unshare: SELECT pg_advisory_unlock_shared(7);\npg_advisory_unlock_shared\n`);
    expect(shared!.output).toContain(`(1 row)\n\n${completed}`);
    // a_read continues a's transaction, which the lab replays: its a_lock must not count twice.
    expect(replayed!.output).toContain(`${unlocked}${completed}\nstep a_commit: COMMIT;\n`);
    // b's UPDATE, let through after a_untwo, is probed (a holds row 1) without taking the lock a second time.
    expect(twoKeys!.output).toContain(
      'step a_untwo: SELECT pg_advisory_unlock(1, 2);\npg_advisory_unlock\n------------------\nt                 \n(1 row)\n\nstep b_upd: <... completed>\ndata\n----\nyb  \n(1 row)\n',
    );
    expect(tried!.refused).toMatch(/^step b_try: pg_try_advisory_lock\(7\) would answer false on a server \(session a holds it\)/);
    expect(released!.refused).toMatch(/^step b_unlock: pg_advisory_unlock\(7\) by a session that does not hold it/);
    expect(all!.refused).toMatch(/^step b_all: pg_advisory_unlock_all\(\) on PGlite's one backend would also let go of the advisory lock session a holds/);
    expect(several!.refused).toMatch(/^step b_two would wait for one of the several advisory locks it takes/);
    expect(rowsBeforeWait!.refused).toMatch(/^step c_upd locks or writes rows while step b_or waits for an advisory lock/);
  });

  it('a session advisory lock outlives its permutation, as on a server (one connection per session for the whole spec); after a refused permutation the lab no longer knows who holds what', async () => {
    const answer = await simInProcess(['spec', join(projectRoot, 'tests/fixtures/specs/advisory-locks-kept.spec'), '--json']);
    expect(answer.code).toBe(2);
    const [taken, kept, tried, after] = (JSON.parse(answer.stdout) as Report).permutations;
    expect(taken!.refused).toBeNull();
    expect(kept!.output).toContain('step b_lock: SELECT pg_advisory_lock(7); <waiting ...>\nstep a_unlock: SELECT pg_advisory_unlock(7);\n');
    expect(tried!.refused).toMatch(/^step a_try: pg_try_advisory_lock\(7\) would answer false on a server \(session b holds it\)/);
    expect(after!.refused).toMatch(/^step a_unlock: it takes or releases an advisory lock, but an earlier permutation was refused/);
  });

  it('an INSERT that could wait for the key another session inserted and has not committed is refused (the NOWAIT probe cannot see that wait)', async () => {
    const spec = file(
      'unique.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { INSERT INTO foo VALUES (3, 'a'); } step a2 { COMMIT; }
session b step b1 { INSERT INTO foo VALUES (3, 'b'); }
permutation a1 b1 a2
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(
      /^lease-lab: refused on PGlite: step b1: it writes a key of a unique index of foo, which another session's open transaction has written/,
    );
  });

  it('a statement that waited while its holder committed writes is refused (PostgreSQL keeps the rows it found before the wait)', async () => {
    const spec = file(
      'waited.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { UPDATE foo SET data = 'a' WHERE id = 1; } step a2 { COMMIT; }
session b step b1 { UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data; }
permutation a1 b1 a2
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(/^lease-lab: refused on PGlite: step b1 waited while another session committed writes/);
  });

  it('a session that continues its transaction after another committed writes: refused when replaying its earlier read answers differently', async () => {
    const spec = file(
      'replay.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { SELECT data FROM foo WHERE id = 1; } step a2 { SELECT 2 AS two; } step a3 { COMMIT; }
session b step b1 { UPDATE foo SET data = 'z' WHERE id = 1; }
permutation a1 b1 a2 a3
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toBe(
      "lease-lab: refused on PGlite: step a2: replaying its session's earlier `SELECT data FROM foo WHERE id = 1` (to continue the parked transaction) answered differently than it did the first time; run it on a server with --db postgres://…\n",
    );
  });

  it('a session that continues a transaction that wrote, after another committed writes: refused (an equal answer would not mean equal writes)', async () => {
    const spec = file(
      'replay-write.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { UPDATE foo SET data = 'a' WHERE id = 1; } step a2 { SELECT 2 AS two; } step a3 { COMMIT; }
session b step b1 { UPDATE foo SET data = 'b' WHERE id = 2; }
permutation a1 b1 a2 a3
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(
      /^lease-lab: refused on PGlite: step a2 continues a transaction that ran `UPDATE foo SET data = 'a' WHERE id = 1` before another session committed writes/,
    );
  });

  it('a parked transaction is committed or rolled back as it was, and replayed when its statements all ran after the last commit that wrote; a SKIP LOCKED one is not replayed once another transaction let go of its locks', async () => {
    // On PostgreSQL c1 skips row 1 (a1 holds it) and updates row 2; replayed after a_rollback let row 1 go,
    // it would update row 1: that permutation must be refused.
    const spec = file(
      'parked-ends.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { UPDATE foo SET data = 'a' WHERE id = 1 RETURNING data; } step a_read { SELECT data FROM foo ORDER BY id; }
step a_commit { COMMIT; } step a_rollback { ROLLBACK; }
session b step b1 { UPDATE foo SET data = 'b' WHERE id = 2; } step b_read { SELECT id, data FROM foo ORDER BY id; }
session c setup { BEGIN; } step c1 { UPDATE foo SET data = 'c' WHERE id = (SELECT id FROM foo ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED); }
step c_read { SELECT id, data FROM foo ORDER BY id; } step c_commit { COMMIT; }
permutation a1 b1 a_commit b_read
permutation a1 b1 a_rollback b_read
permutation b1 a1 a_read a_commit
permutation a1 c1 a_rollback c_read c_commit
`,
    );
    const answer = await simInProcess(['spec', spec, '--json']);
    expect(answer.code).toBe(2);
    const [committed, rolledBack, replayed, skipped] = (JSON.parse(answer.stdout) as Report).permutations;
    for (const permutation of [committed, rolledBack, replayed]) expect(permutation!.refused).toBeNull();
    expect(committed!.output).toContain('step b_read: SELECT id, data FROM foo ORDER BY id;\nid|data\n--+----\n 1|a   \n 2|b   \n(2 rows)\n');
    expect(rolledBack!.output).toContain('step b_read: SELECT id, data FROM foo ORDER BY id;\nid|data\n--+----\n 1|x   \n 2|b   \n(2 rows)\n');
    expect(replayed!.output).toContain('step a_read: SELECT data FROM foo ORDER BY id;\ndata\n----\na   \nb   \n(2 rows)\n');
    expect(skipped!.refused).toMatch(
      /^step c_read continues a transaction whose `UPDATE foo SET data = 'c' WHERE id = \(SELECT id FROM foo ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED\)` skipped locked rows: another session's transaction has ended since/,
    );
  });

  it('a transaction that continues after an insert that drew from a sequence is refused (a replay would draw other numbers)', async () => {
    const spec = file(
      'sequence.spec',
      `setup { CREATE TABLE t (id serial PRIMARY KEY, v text); }
teardown { DROP TABLE t; }
session a setup { BEGIN; } step a1 { INSERT INTO t (v) VALUES ('a'); } step a2 { SELECT id, v FROM t; } step a3 { COMMIT; }
session b step b1 { SELECT count(*) FROM t; }
permutation a1 b1 a2 a3
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(
      /^lease-lab: refused on PGlite: step a2 continues a transaction whose `INSERT INTO t \(v\) VALUES \('a'\)` drew from a sequence/,
    );
  });

  it('a statement that draws from a sequence where the NOWAIT probe runs is refused (the probe would draw too); where no lock is held it runs', async () => {
    // On PostgreSQL 15 this order updates rows 1, 2 and 3 and the next nextval is 4; with the probe's draws
    // PGlite updated none and gave 7.
    const spec = file(
      'sequence-probe.spec',
      `setup { CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 0), (2, 0), (3, 0); CREATE SEQUENCE seq; }
teardown { DROP TABLE t; DROP SEQUENCE seq; }
session a step a1 { BEGIN; } step a2 { SELECT id FROM t WHERE id = 3 FOR UPDATE; } step a3 { COMMIT; }
session b step b1 { UPDATE t SET v = v + 1 WHERE id = nextval('seq') RETURNING id, v; } step b2 { SELECT nextval('seq'); }
permutation a1 a2 b1 a3 b2
permutation b1 b2 a1 a2 a3
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stdout).toContain(
      'refused on PGlite: step b1: it draws from a sequence, and the NOWAIT probe that finds whether it would wait draws from it too',
    );
    expect(answer.stdout).toContain("step b1: UPDATE t SET v = v + 1 WHERE id = nextval('seq') RETURNING id, v;\nid|v\n--+-\n 1|1\n 2|1\n 3|1\n(3 rows)\n");
    expect(answer.stdout).toContain("step b2: SELECT nextval('seq');\nnextval\n-------\n      4\n(1 row)\n");
  });

  it("a SET in the spec's setup is refused (on PGlite it would reach every session)", async () => {
    const spec = file(
      'setup-set.spec',
      `setup { CREATE TABLE foo (id int); SET lock_timeout = '1s'; }\nteardown { DROP TABLE foo; }\nsession a step a1 { SELECT 1; }\n`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toMatch(/^lease-lab: refused on PGlite: the spec's setup, teardown or a check changes a setting/);
  });

  it("a row locked by a transaction the spec's own setup prepared: a step that would wait for it is found waiting, though no session holds a lock", async () => {
    // The NOWAIT probe is skipped while no other transaction holds a lock; one the spec prepared itself does.
    const spec = file(
      'prepared-by-setup.spec',
      `setup { CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL); INSERT INTO foo VALUES (1, 'x'); }
setup { BEGIN; UPDATE foo SET data = 'held' WHERE id = 1; PREPARE TRANSACTION 'held_by_setup'; }
teardown { ROLLBACK PREPARED 'held_by_setup'; }
session b step b1 { UPDATE foo SET data = 'b' WHERE id = 1; }
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.stdout).toContain("step b1: UPDATE foo SET data = 'b' WHERE id = 1; <waiting ...>\ninvalid permutation detected\n");
  });

  it('a spec that leaves a table behind leaves it in a cluster no later spec of this file gets (the tests reuse a cluster only as they found it)', async () => {
    const leaves = file('leaves.spec', 'setup { CREATE TABLE left_behind (id int); }\nsession a step a1 { SELECT 1 AS one; }\n');
    expect((await simInProcess(['spec', leaves])).code).toBe(0);
    const creates = file(
      'creates.spec',
      'setup { CREATE TABLE left_behind (id int); }\nteardown { DROP TABLE left_behind; }\nsession a step a1 { SELECT count(*) FROM left_behind; }\n',
    );
    const answer = await simInProcess(['spec', creates]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
  });

  it('a wait whose holder rolls back completes as the tester prints it', async () => {
    const spec = file(
      'rolled-back.spec',
      `${TABLE_SETUP}session a setup { BEGIN; } step a1 { UPDATE foo SET data = 'a' WHERE id = 1; } step a2 { ROLLBACK; }
session b step b1 { UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data; }
permutation a1 b1 a2
`,
    );
    const answer = await simInProcess(['spec', spec]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    expect(answer.stdout).toBe(`Parsed test spec with 2 sessions

starting permutation: a1 b1 a2
step a1: UPDATE foo SET data = 'a' WHERE id = 1;
step b1: UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data; <waiting ...>
step a2: ROLLBACK;
step b1: <... completed>
data
----
xb  
(1 row)

`);
  });
});
