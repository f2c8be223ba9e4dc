/**
 * `npm run sim -- check … --db URL` on a real PostgreSQL server: the schedules run there, one connection per
 * worker, in a schema of the CLI's own that is dropped afterwards. The server's answer must be the one
 * PGlite gives (the same groups, counts and witnesses), and nothing of the database's own may change: a
 * table named runs in public, with its row, stays as it was, and no schema is left behind.
 */
import { type CliAnswer, simInProcess, simStarted } from '../support/cli';
import { join } from 'node:path';
import pg from 'pg';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresLab } from '../../src/db/postgres-lab';
import type { LabStatement } from '../../src/strategies';
import { catalogSnapshot } from '../support/catalog-snapshot';
import { createDatabase } from '../support/postgres-server';

const projectRoot = join(__dirname, '../..');
const corpus = (name: string) => join(projectRoot, 'tests/ground-truth/claim-corpus', name);
const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');

/** The command line as the user runs it, several at once; `pid` names the run's own throwaway objects. */
async function sim(...args: string[]): Promise<CliAnswer & { pid: number }> {
  const { child, answer } = simStarted(args);
  return { ...(await answer), pid: child.pid ?? 0 };
}

/**
 * PGlite's answer to compare with, from the same command line in this process while the server's runs
 * (whose throwaway objects the tests look for by pid) go on beside it: no second Node and PGlite to start.
 */
const onPgliteInProcess = (...args: string[]): Promise<CliAnswer> => simInProcess(args);

interface Report {
  database: { kind: string; server?: string };
  total: number;
  exitCode: number;
  groups: { key: string; count: number; witness: string[] }[];
}

/** A reaper that also resets a run whose lease has up to an hour left. */
const LEAKY_REAPER = join(mkdtempSync(join(tmpdir(), 'lease-lab-reaper-')), 'leaky-reaper.sql');
writeFileSync(
  LEAKY_REAPER,
  "UPDATE runs SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL WHERE status = 'running' AND lease_expires_at <= now() + interval '1 hour';",
);

let url: string;
let client: pg.Client;

async function schemas(): Promise<string[]> {
  const result = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' ORDER BY nspname");
  return result.rows.map((row) => row.nspname);
}

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'check_db');
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The database's own table of the same name, which the check must never touch.
  await client.query('CREATE TABLE public.runs (run_id integer PRIMARY KEY, note text)');
  await client.query("INSERT INTO public.runs VALUES (1, 'theirs')");
});

afterAll(async () => {
  await client?.end();
});

describe('npm run sim -- check --db URL', () => {
  it.for([
    { name: '04-cte-without-lock.sql', file: corpus('04-cte-without-lock.sql'), exitCode: 1 },
    { name: 'claim-skip-locked.sql', file: SKIP_LOCKED, exitCode: 0 },
  ])('$name in the race: the same answer as PGlite, exit $exitCode, and the database as it was', { timeout: 300_000 }, async ({ file, exitCode }) => {
    const before = await schemas();
    const [onServer, onPglite] = await Promise.all([
      sim('check', 'race', '--claim', file, '--db', url, '--json'),
      onPgliteInProcess('check', 'race', '--claim', file, '--json'),
    ]);
    expect(onServer.stderr).toBe('');
    expect(onServer.code).toBe(exitCode);
    const [server, pglite] = [JSON.parse(onServer.stdout), JSON.parse(onPglite.stdout)] as Report[];
    expect(server!.database).toEqual({ kind: 'postgres', server: `${new URL(url).host}/check_db` });
    expect(pglite!.database).toEqual({ kind: 'pglite' });
    expect(server!.total).toBe(pglite!.total);
    expect(server!.groups).toEqual(pglite!.groups);
    expect(await schemas()).toEqual(before);
    expect((await client.query('SELECT run_id, note FROM public.runs')).rows).toEqual([{ run_id: 1, note: 'theirs' }]);
  });

  it(
    'a shape PGlite cannot follow through a wait (FOR KEY SHARE, corpus 07) is refused on PGlite and played on the server: a double claim, exit 1',
    { timeout: 300_000 },
    async () => {
      const file = corpus('07-for-key-share.sql');
      const [onServer, onPglite] = await Promise.all([
        sim('check', 'race', '--claim', file, '--db', url, '--json'),
        onPgliteInProcess('check', 'race', '--claim', file),
      ]);
      expect(onPglite.code).toBe(2);
      expect(onPglite.stderr).toMatch(/07-for-key-share\.sql: refused \(key-share-finder\)/);
      expect(onServer.stderr).toBe('');
      expect(onServer.code).toBe(1);
      const report = JSON.parse(onServer.stdout) as Report & { claim: { summary: string } };
      expect(report.claim.summary).toMatch(/after a wait it does what the server does/);
      expect(report.groups.map((group) => group.key)).toContain('double-claim:123 duplicate-execution:123 split-ownership:123');
      // Its witness, replayed step by step on the server: B's claim waited, then took run 123 from A.
      const witness = report.groups.find((group) => group.key === 'double-claim:123 duplicate-execution:123 split-ownership:123')!.witness;
      const replayed = await sim('run', 'race', '--claim', file, '--db', url, '--schedule', witness.join(','), '--json');
      expect(replayed.code).toBe(0);
      const trace = JSON.parse(replayed.stdout) as { anomalies: { kind: string }[] };
      expect(trace.anomalies.map((anomaly) => anomaly.kind).sort()).toEqual(['double-claim', 'duplicate-execution', 'split-ownership']);
    },
  );

  // A completion that deletes its run: the server's DELETE answers how many rows it removed, as PGlite's does,
  // and the run's role may delete from its own runs. Every race schedule, as on PGlite (tests/unit/cli-check.test.ts).
  it.for([
    { name: 'claim-skip-locked.sql', file: SKIP_LOCKED, exitCode: 0 },
    { name: '14-update-eq-subselect-no-recheck.sql', file: corpus('14-update-eq-subselect-no-recheck.sql'), exitCode: 1 },
  ])(
    '$name with docs/examples/complete-by-delete.sql: the same groups as PGlite, exit $exitCode, and no schema left',
    { timeout: 300_000 },
    async ({ file, exitCode }) => {
      const before = await schemas();
      const args = ['check', 'race', '--claim', file, '--complete', join(projectRoot, 'docs/examples/complete-by-delete.sql')];
      const [onServer, onPglite] = await Promise.all([sim(...args, '--db', url, '--json'), onPgliteInProcess(...args, '--json')]);
      expect(onServer.stderr).toBe('');
      expect([onServer.code, onPglite.code]).toEqual([exitCode, exitCode]);
      const [server, pglite] = [JSON.parse(onServer.stdout), JSON.parse(onPglite.stdout)] as Report[];
      expect(server!.database.kind).toBe('postgres');
      expect(server!.groups).toEqual(pglite!.groups);
      if (exitCode === 1) expect(server!.groups.map((group) => group.key)).toContain('double-claim:123 duplicate-execution:123 split-ownership:123');
      expect(await schemas()).toEqual(before);
    },
  );

  // A reaper on the rescuer's own connection: the server's groups are PGlite's, the leaky reaper's double claim
  // among them. A seeded sample of paused-worker (the same schedules on both), not all 14,310.
  it.for([
    { name: 'docs/examples/reaper.sql', reaper: join(projectRoot, 'docs/examples/reaper.sql'), exitCode: 0 },
    { name: 'a reaper of live leases', reaper: LEAKY_REAPER, exitCode: 1 },
  ])(
    '$name with a claim of pending runs only: the same groups as PGlite, exit $exitCode, and no schema left',
    { timeout: 300_000 },
    async ({ reaper, exitCode }) => {
      const before = await schemas();
      const args = [
        'check',
        'paused-worker',
        '--claim',
        corpus('11-skip-locked-no-expired-branch.sql'),
        '--reaper',
        reaper,
        '--sample',
        '24',
        '--seed',
        '1',
        '--json',
      ];
      const [onServer, onPglite] = await Promise.all([sim(...args, '--db', url), onPgliteInProcess(...args)]);
      expect(onServer.stderr).toBe('');
      expect([onServer.code, onPglite.code]).toEqual([exitCode, exitCode]);
      const [server, pglite] = [JSON.parse(onServer.stdout), JSON.parse(onPglite.stdout)] as Report[];
      expect(server!.database.kind).toBe('postgres');
      expect(server!.groups).toEqual(pglite!.groups);
      if (exitCode === 1) expect(server!.groups.some((group) => group.key.includes('double-claim:123'))).toBe(true);
      expect(await schemas()).toEqual(before);
    },
  );

  it('the text report names the server, one connection per worker', { timeout: 300_000 }, async () => {
    const { code, stdout } = await sim('check', 'race', '--claim', corpus('14-update-eq-subselect-no-recheck.sql'), '--db', url);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(`^race: all \\d+ schedules with your claim .*on the PostgreSQL server ${new URL(url).host}/check_db, one connection per worker\\)$`, 'm'),
    );
    expect(stdout).toMatch(/^UNSAFE: /m);
  });
});

/**
 * The tester's own database, as the red team found it: public.runs with the lab's columns and 200 pending
 * runs of theirs, public.payments, a function that pays (inserts a payment) behind an operator public.+
 * and a domain public.t, a schema of theirs with a table, and a role. Under --db, a claim that names any of
 * it must be refused by the server's privileges (the workers log in as the run's role) and leave every byte
 * as it was.
 */
describe("under --db, the user's objects are out of the run's reach", () => {
  let userUrl: string;
  let owner: pg.Client;
  const dir = mkdtempSync(join(tmpdir(), 'lease-lab-privileges-'));
  const claimFile = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const skipLocked = (table: string, generation = 'lease_generation + 1') => `WITH candidate AS (
  SELECT run_id FROM ${table}
  WHERE status = 'pending' OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE ${table}
SET status = 'running', lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = ${generation}, heartbeat_at = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
`;
  /** Nothing left of a run of process `pid`: its schema and its role are gone. */
  const leftovers = async (pid: number) =>
    (
      await owner.query(
        `SELECT 'schema ' || nspname AS what FROM pg_namespace WHERE nspname LIKE $1
         UNION ALL SELECT 'role ' || rolname FROM pg_roles WHERE rolname LIKE $1`,
        [`lease\\_lab\\_cli\\_${pid}\\_%`],
      )
    ).rows;

  beforeAll(async () => {
    userUrl = await createDatabase(inject('postgresUrl'), 'check_db_privileges');
    owner = new pg.Client({ connectionString: userUrl });
    await owner.connect();
    await owner.query(`
      CREATE TABLE public.runs (
        run_id integer PRIMARY KEY, tenant text NOT NULL DEFAULT 'acme', status text NOT NULL DEFAULT 'pending',
        lease_owner text, lease_expires_at timestamptz, lease_generation integer NOT NULL DEFAULT 0,
        heartbeat_at timestamptz, cancel_requested boolean NOT NULL DEFAULT false, created_at timestamptz NOT NULL);
      INSERT INTO public.runs (run_id, created_at) SELECT g, '2029-12-31T00:00:00Z'::timestamptz + g * interval '1 second' FROM generate_series(1, 200) g;
      CREATE TABLE public.payments (amount integer NOT NULL);
      INSERT INTO public.payments VALUES (100);
      CREATE FUNCTION public.pay(a integer, b integer) RETURNS integer LANGUAGE plpgsql VOLATILE
        AS $$ BEGIN INSERT INTO public.payments VALUES (a); RETURN a + b; END $$;
      CREATE OPERATOR public.+ (LEFTARG = integer, RIGHTARG = integer, FUNCTION = public.pay);
      CREATE DOMAIN public.t AS integer CHECK (public.pay(VALUE, 0) IS NOT NULL);
      CREATE SCHEMA theirs;
      CREATE TABLE theirs.accounts (id integer PRIMARY KEY, balance integer NOT NULL);
      INSERT INTO theirs.accounts VALUES (1, 10), (2, 20);
      DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tester_app') THEN CREATE ROLE tester_app LOGIN; END IF; END $$;
      GRANT SELECT ON public.runs TO tester_app;
    `);
  });

  afterAll(async () => {
    await owner?.end();
  });

  it(
    'a claim of public.runs: the server refuses it (permission denied), exit 2 in one line, and not one of their rows changes',
    { timeout: 300_000 },
    async () => {
      const before = await catalogSnapshot(owner);
      const run = await sim('check', 'race', '--claim', claimFile('public-runs.sql', skipLocked('public.runs')), '--db', userUrl);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /^lease-lab: the server refused a statement of yours: permission denied for table runs; under --db the workers log in as the run's role lease_lab_cli_\d+_[0-9a-f]+/,
      );
      expect(await catalogSnapshot(owner)).toEqual(before);
      expect((await owner.query("SELECT count(*)::int AS n FROM public.runs WHERE status = 'pending' AND lease_owner IS NULL")).rows).toEqual([{ n: 200 }]);
      expect(await leftovers(run.pid)).toEqual([]);
    },
  );

  it(
    'a claim through their operator OPERATOR(public.+) or their domain ::public.t (each would pay): exit 2 in one line, and no payment is made',
    { timeout: 300_000 },
    async () => {
      const before = await catalogSnapshot(owner);
      const runs = await Promise.all([
        sim('check', 'race', '--claim', claimFile('operator.sql', skipLocked('runs', 'lease_generation OPERATOR(public.+) 1')), '--db', userUrl),
        sim('check', 'race', '--claim', claimFile('domain.sql', skipLocked('runs', '(lease_generation + 1)::public.t')), '--db', userUrl),
      ]);
      for (const run of runs) {
        expect(run.code, run.stdout + run.stderr).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/refused \(qualified-name\)|permission denied/);
        expect(await leftovers(run.pid)).toEqual([]);
      }
      expect(await catalogSnapshot(owner)).toEqual(before);
      expect((await owner.query('SELECT amount FROM public.payments')).rows).toEqual([{ amount: 100 }]);
    },
  );

  it(
    "a connecting role that is not a superuser (CREATEROLE, CREATE on the database) plays lock waits and crashes through the run's role, and leaves nothing behind",
    { timeout: 300_000 },
    async () => {
      await owner.query(
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lease_lab_creator') THEN CREATE ROLE lease_lab_creator LOGIN CREATEROLE; END IF; END $$",
      );
      await owner.query('GRANT CREATE ON DATABASE check_db_privileges TO lease_lab_creator');
      try {
        const creator = new URL(userUrl);
        creator.username = 'lease_lab_creator';
        const before = await catalogSnapshot(owner);
        // A lock wait is seen in pg_stat_activity, and a crash ends a worker's backend: the connecting role may do
        // both to the run's role's backends as a member of it.
        const [waited, crashed] = await Promise.all([
          sim('run', 'lock-wait', '--strategy', 'for-update', '--db', creator.toString(), '--json'),
          sim('run', 'crash-orphan', '--db', creator.toString(), '--json'),
        ]);
        for (const run of [waited, crashed]) {
          expect(run.stderr).toBe('');
          expect(run.code).toBe(0);
          expect(await leftovers(run.pid)).toEqual([]);
        }
        const statuses = (trace: string) => (JSON.parse(trace) as { steps: { action: string; outcome: { status: string } | null }[] }).steps;
        expect(statuses(waited.stdout).some((step) => step.outcome?.status === 'blocked')).toBe(true);
        expect(statuses(crashed.stdout).some((step) => step.action === 'crash')).toBe(true);
        expect(await catalogSnapshot(owner)).toEqual(before);
      } finally {
        await owner.query('REVOKE CREATE ON DATABASE check_db_privileges FROM lease_lab_creator');
      }
    },
  );

  it(
    "past the statement analysis too, the run's role may not pay: the server's permission error, and the payments stay as they were",
    { timeout: 60_000 },
    async () => {
      const before = await catalogSnapshot(owner);
      const lab = await PostgresLab.connect(userUrl, ['A'], { schema: 'own' });
      let refusal: unknown = null;
      try {
        await lab.reset(
          JSON.stringify([
            {
              run_id: 1,
              tenant: 'acme',
              status: 'pending',
              lease_generation: 0,
              cancel_requested: false,
              created_at: '2030-01-01T14:00:00Z',
              progress: 0,
              cost_cents: 0,
            },
          ]),
          ['A'],
        );
        // As if the analysis had let them through: a statement that reaches for their operator, and one for their domain.
        for (const text of [
          'UPDATE runs SET lease_generation = lease_generation OPERATOR(public.+) 1 WHERE run_id = 1 RETURNING run_id',
          'UPDATE runs SET lease_generation = (lease_generation + 1)::public.t WHERE run_id = 1 RETURNING run_id',
          "UPDATE public.runs SET status = 'running' WHERE run_id = 1 RETURNING run_id",
        ]) {
          const statement: LabStatement = { id: 'hostile', text, file: null, params: [], probe: null, afterWait: { kind: 'cannot-wait' } };
          refusal = await lab.execute('A', { statement, params: [], clockIso: '2030-01-01T15:00:00.000Z' }).then(
            (outcome) => outcome,
            (error: Error) => error.message,
          );
          expect(refusal, text).toMatch(/^the server refused a statement of yours: permission denied for (table payments|table runs|function pay)/);
        }
      } finally {
        await lab.close();
      }
      expect(await catalogSnapshot(owner)).toEqual(before);
      expect((await owner.query('SELECT amount FROM public.payments')).rows).toEqual([{ amount: 100 }]);
      expect(await leftovers(process.pid)).toEqual([]);
    },
  );
});
