/**
 * PostgreSQL's own row-locking isolation specs (tests/fixtures/postgres-isolation/), run by
 * `npm run sim -- spec FILE --db URL` on the test server (PostgreSQL 15): the output must equal PostgreSQL's
 * expected/NAME.out byte for byte (or one of its NAME_N.out alternatives). The lab's examples in docs/examples/
 * give their exit codes (the race breaks its check, the lock wait keeps both). A spec's SQL runs as a login
 * role of the run's own, which owns the throwaway database and nothing else, and every run leaves the server
 * with the databases and roles it had.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StepRecord } from '../../src/spec/report';
import { projectRoot, simInProcess, simStarted } from '../support/cli';

const fixtures = join(projectRoot, 'tests/fixtures/postgres-isolation');
const specs = readdirSync(join(fixtures, 'specs'))
  .filter((name) => name.endsWith('.spec'))
  .map((name) => name.replace(/\.spec$/, ''));

/** expected/NAME.out and its alternatives NAME_1.out, NAME_2.out, … */
function expectedOutputs(name: string): string[] {
  const outputs: string[] = [];
  for (const suffix of ['', '_1', '_2', '_3']) {
    const path = join(fixtures, 'expected', `${name}${suffix}.out`);
    if (existsSync(path)) outputs.push(readFileSync(path, 'utf8'));
  }
  return outputs;
}

let url: string;
let client: pg.Client;
let databasesBefore: string[];

/**
 * The databases and roles of this process's spec runs (lease_lab_spec_<pid>_<random>): a run must leave none.
 * Only these: other test files share the server and create databases and roles of their own meanwhile.
 */
async function databases(pids: readonly number[] = [process.pid]): Promise<string[]> {
  const patterns = pids.map((pid) => `lease\\_lab\\_spec\\_${pid}\\_%`);
  const result = await client.query<{ name: string }>(
    `SELECT 'database ' || datname AS name FROM pg_database WHERE datname LIKE ANY($1)
     UNION ALL SELECT 'role ' || rolname FROM pg_roles WHERE rolname LIKE ANY($1) ORDER BY 1`,
    [patterns],
  );
  return result.rows.map((row) => row.name);
}

const scratch = mkdtempSync(join(tmpdir(), 'lease-lab-spec-gt-'));
function specFile(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  url = inject('postgresUrl');
  client = new pg.Client({ connectionString: url });
  await client.connect();
  databasesBefore = await databases();
});

afterAll(async () => {
  await client.end();
});

describe('PostgreSQL isolation specs on PostgreSQL 15, as the isolation tester prints them', () => {
  it.each(specs)('%s: the output is its expected file', async (name) => {
    const answer = await simInProcess(['spec', join(fixtures, 'specs', `${name}.spec`), '--db', url]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const outputs = expectedOutputs(name);
    expect(outputs.length).toBeGreaterThan(0);
    // Any alternative may match; when none does, the diff shown is against the first.
    if (!outputs.includes(answer.stdout)) expect(answer.stdout).toBe(outputs[0]);
    expect(await databases()).toEqual(databasesBefore);
  });
});

interface JsonReport {
  permutations: { steps: string[]; output: string; refused: string | null; invalid: string | null; trace: StepRecord[] }[];
  exitCode: number;
}

/**
 * PGlite (one emulated session per session) and the server must never disagree: every permutation PGlite
 * follows prints exactly what the server prints for it; the ones it refuses are left out of the comparison,
 * and are counted.
 */
describe('the same specs on PGlite and on PostgreSQL 15, permutation by permutation', () => {
  const examples = readdirSync(join(projectRoot, 'docs/examples'))
    .filter((name) => name.endsWith('.spec'))
    .map((name) => join(projectRoot, 'docs/examples', name));
  // The lab's own specs of what it follows on PGlite (tests/fixtures/specs/), compared the same way.
  const own = readdirSync(join(projectRoot, 'tests/fixtures/specs'))
    .filter((name) => name.endsWith('.spec'))
    .map((name) => join(projectRoot, 'tests/fixtures/specs', name));
  const files = [...specs.map((name) => join(fixtures, 'specs', `${name}.spec`)), ...examples, ...own];
  it.each(files.map((path) => [path.slice(projectRoot.length + 1), path]))('%s', async (_name, path) => {
    const server = JSON.parse((await simInProcess(['spec', path, '--db', url, '--json'])).stdout) as JsonReport;
    const pglite = JSON.parse((await simInProcess(['spec', path, '--json'])).stdout) as JsonReport;
    expect(pglite.permutations.map((p) => p.steps)).toEqual(server.permutations.map((p) => p.steps));
    let compared = 0;
    server.permutations.forEach((onServer, i) => {
      const onPglite = pglite.permutations[i]!;
      if (onPglite.refused !== null) return;
      compared += 1;
      expect(onPglite.output, onServer.steps.join(' ')).toBe(onServer.output);
      expect(onPglite.invalid).toBe(onServer.invalid);
      // The record of each step too: who waited, what ended the wait, the rows, the SQLSTATE.
      expect(onPglite.trace, onServer.steps.join(' ')).toEqual(onServer.trace);
    });
    // Nothing followed on PGlite disagrees; and where PGlite refused nothing, the verdicts are the same.
    if (compared === server.permutations.length) expect(pglite.exitCode).toBe(server.exitCode);
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe("the lab's examples as specs", () => {
  it('race: the naive claim runs run 123 twice; the shortest permutation that shows it is printed, exit 1', async () => {
    const answer = await simInProcess(['spec', join(projectRoot, 'docs/examples/race.spec'), '--db', url]);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('broken in 4 of 6; the shortest: --permutation "a_poll b_poll a_claim b_claim"');
    expect(answer.stdout).toContain('check "no run executed twice" broken:\nrun_id|executions\n------+----------\n   123|         2\n(1 row)\n');
    expect(answer.stdout.trimEnd().endsWith('BROKEN: no run executed twice (exit 1)')).toBe(true);
    expect(await databases()).toEqual(databasesBefore);
  });

  it('lock-wait: B waits for A, then takes run 124; both checks hold, exit 0', async () => {
    const answer = await simInProcess(['spec', join(projectRoot, 'docs/examples/lock-wait.spec'), '--db', url, '--json']);
    expect(answer.code).toBe(0);
    const report = JSON.parse(answer.stdout) as JsonReport;
    expect(report.exitCode).toBe(0);
    expect(report.permutations).toHaveLength(20);
    expect(report.permutations.filter((p) => p.invalid === null)).toHaveLength(6);
    const waited = report.permutations.find((p) => p.steps.join(' ') === 'a_claim a_work b_claim a_commit b_work b_commit')!;
    expect(waited.output).toContain(
      '<waiting ...>\nstep a_commit: COMMIT;\nstep b_claim: <... completed>\nrun_id|lease_generation\n------+----------------\n   124|               1\n',
    );
    expect(waited.trace.find((s) => s.step === 'b_claim')).toMatchObject({
      waited: true,
      releasedBy: 'a_commit',
      results: [{ columns: ['run_id', 'lease_generation'], rows: [['124', '1']] }],
      error: null,
    });
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe('isolation levels, as PostgreSQL 15 runs them (docs/examples)', () => {
  const example = (name: string) => join(projectRoot, 'docs/examples', name);

  it("the naive race at REPEATABLE READ: B's claim fails 40001 (after waiting for A, or at once), never a second execution; exit 0", async () => {
    const answer = await simInProcess(['spec', example('race-repeatable-read.spec'), '--db', url, '--json']);
    expect(answer.code).toBe(0);
    const report = JSON.parse(answer.stdout) as JsonReport;
    expect(report.permutations).toHaveLength(70);
    expect(report.permutations.filter((p) => p.invalid === null)).toHaveLength(50);
    const waited = report.permutations.find((p) => p.steps.join(' ') === 'a_begin a_poll b_begin b_poll a_claim b_claim a_commit b_commit')!;
    expect(waited.output).toMatch(
      /step b_claim: .* <waiting \.\.\.>\nstep a_commit: COMMIT;\nstep b_claim: <\.\.\. completed>\nERROR: {2}could not serialize access due to concurrent update\n/,
    );
    expect(waited.trace.find((s) => s.step === 'b_claim')).toMatchObject({
      waited: true,
      releasedBy: 'a_commit',
      error: { code: '40001', message: 'could not serialize access due to concurrent update' },
    });
    const atOnce = report.permutations.find((p) => p.steps.join(' ') === 'a_begin a_poll b_begin b_poll a_claim a_commit b_claim b_commit')!;
    expect(atOnce.output).toMatch(/step b_claim: [^\n]*\nERROR: {2}could not serialize access due to concurrent update\n/);
    // The same order at READ COMMITTED (docs/examples/race.spec's claim): B's UPDATE claims run 123 again.
    const readCommitted = specFile(
      'race-read-committed.spec',
      readFileSync(example('race-repeatable-read.spec'), 'utf8').replaceAll('REPEATABLE READ;', 'READ COMMITTED;'),
    );
    const again = await simInProcess(['spec', readCommitted, '--db', url, '--permutation', 'a_begin a_poll b_begin b_poll a_claim a_commit b_claim b_commit']);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('BROKEN: no run executed twice (exit 1)');
    expect(await databases()).toEqual(databasesBefore);
  });

  it('a tenant limit checked with count(*): write skew at REPEATABLE READ (exit 1), one claim fails 40001 at SERIALIZABLE (exit 0)', async () => {
    const repeatable = await simInProcess(['spec', example('tenant-limit-repeatable-read.spec'), '--db', url]);
    expect(repeatable.code).toBe(1);
    expect(repeatable.stdout).toContain('broken in 12 of 20; the shortest: --permutation "a_begin a_claim b_begin b_claim a_commit b_commit"');
    expect(repeatable.stdout).not.toContain('could not serialize');
    const serializable = await simInProcess(['spec', example('tenant-limit-serializable.spec'), '--db', url]);
    expect(serializable.code).toBe(0);
    expect(serializable.stdout).toContain(
      'step a_commit: COMMIT;\nstep b_commit: COMMIT;\nERROR:  could not serialize access due to read/write dependencies among transactions\n',
    );
    expect(serializable.stdout).toContain('every check held in all 20 (exit 0)');
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe("a spec's SQL runs as the run's own role", () => {
  it("which is no superuser and may not read files or end the connecting role's backend", async () => {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const file = specFile(
      'escape.spec',
      `setup { CREATE TABLE mine (i int); }
teardown { DROP TABLE mine; }
session s1
step who  { SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user; }
step read { SELECT pg_read_file('/etc/hostname'); }
step kill { SELECT pg_terminate_backend(${rows[0]!.pid}); }
`,
    );
    const answer = await simInProcess(['spec', file, '--db', url]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain('rolsuper|rolcreatedb|rolcreaterole\n--------+-----------+-------------\nf       |f          |f            \n(1 row)');
    expect(answer.stdout).toContain("step read: SELECT pg_read_file('/etc/hostname');\nERROR:  permission denied for function pg_read_file");
    expect(answer.stdout).toMatch(/step kill: SELECT pg_terminate_backend\(\d+\);\nERROR: {2}must be a superuser to terminate superuser process/);
    // The connection the kill aimed at is still there.
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(await databases()).toEqual(databasesBefore);
  });

  it('a setup that fails stops the run: one line, exit 2, nothing left behind', async () => {
    const file = specFile('bad-setup.spec', 'setup { CREATE TABLE t (i int); INSERT INTO nowhere VALUES (1); }\nsession s1 step a { SELECT 1; }\n');
    const answer = await simInProcess(['spec', file, '--db', url]);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toBe('lease-lab: setup failed: ERROR:  relation "nowhere" does not exist\n');
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe('waits the isolation tester sees through', () => {
  it('a deadlock: both steps wait, the server breaks it, and the runner waits for that instead of giving up', async () => {
    const file = specFile(
      'deadlock.spec',
      `setup { CREATE TABLE a (i int); CREATE TABLE b (i int); }
teardown { DROP TABLE a, b; }
session s1
setup { BEGIN; }
step s1a { LOCK TABLE a; }
step s1b { LOCK TABLE b; }
step s1c { COMMIT; }
session s2
setup { BEGIN; }
step s2a { LOCK TABLE b; }
step s2b { LOCK TABLE a; }
step s2c { COMMIT; }
permutation s1a s2a s1b s2b s1c s2c
`,
    );
    const answer = await simInProcess(['spec', file, '--db', url]);
    expect(answer.code).toBe(0);
    // The deadlock detector runs in whichever waiting backend's deadlock_timeout runs out first: usually s1b's,
    // which waited longer, but on a busy machine it can be s2b's (a test may not SET deadlock_timeout per
    // session, as PostgreSQL's own deadlock specs do: that needs a superuser). Either way one of the two steps
    // gets the error, the other its lock, and both transactions end.
    const waited = `Parsed test spec with 2 sessions

starting permutation: s1a s2a s1b s2b s1c s2c
step s1a: LOCK TABLE a;
step s2a: LOCK TABLE b;
step s1b: LOCK TABLE b; <waiting ...>
step s2b: LOCK TABLE a; <waiting ...>
`;
    const ended = 'step s1c: COMMIT;\nstep s2c: COMMIT;\n';
    expect(answer.stdout.startsWith(waited)).toBe(true);
    expect(answer.stdout.endsWith(ended)).toBe(true);
    const middle = answer.stdout.slice(waited.length, answer.stdout.length - ended.length);
    expect([
      'step s1b: <... completed>\nERROR:  deadlock detected\nstep s2b: <... completed>\n',
      'step s2b: <... completed>\nERROR:  deadlock detected\nstep s1b: <... completed>\n',
      // s2b's detector broke it and freed s1b's lock at once: both answers were in when the runner looked, and
      // it reports waiting steps in the order they began waiting, as PostgreSQL's isolation tester does.
      'step s1b: <... completed>\nstep s2b: <... completed>\nERROR:  deadlock detected\n',
    ]).toContain(middle);
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe('an interrupted run', () => {
  it('Ctrl-C while a step runs: the throwaway database and role are dropped, exit 130, no stack trace', async () => {
    const file = specFile('slow.spec', 'session s1 step slow { SELECT pg_sleep(60); }\n');
    const { child, answer } = simStarted(['spec', file, '--db', url]);
    const exited = answer.then(({ code }) => code);
    // Wait until the step is running on the server, then interrupt.
    for (;;) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60);' AND pid <> pg_backend_pid()",
      );
      if (rows[0]!.n === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await databases([child.pid!])).not.toEqual([]);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    // One line says what the signal did; no stack trace.
    expect((await answer).stderr).toMatch(/^lease-lab: stopped by SIGINT; cancelling the server's statements and dropping what the run created\n$/);
    expect(await databases([child.pid!])).toEqual([]);
  });
});
