/**
 * Live mode against the real server the tests start, tried as an attacker would: whatever reaches the
 * bridge's backend, nothing outside the lab's schema changes (a catalog snapshot before and after), and
 * stopping the bridge never drops anything of the user's.
 */
import { type CliAnswer, simStarted } from '../support/cli';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveBackend, connectBackend, dropSchema } from '../../src/live/server';
import { checkRequest, RefusedRequest } from '../../src/live/requests';
import { catalogSnapshot } from '../support/catalog-snapshot';
import { testDatabaseUrl } from './differential';

let url: string;
let backend: LiveBackend | null = null;
let inspector: pg.Client;

beforeAll(async () => {
  url = await testDatabaseUrl('live_hostile');
  inspector = new pg.Client({ connectionString: url });
  await inspector.connect();
  await inspector.query('CREATE TABLE public.victim (id int PRIMARY KEY, v int NOT NULL); INSERT INTO public.victim VALUES (1, 1), (2, 2)');
});

afterAll(async () => {
  await backend?.close();
  await inspector?.end();
});

describe('the live console on a real server', () => {
  it('sends the statement alone: text holding several is refused by the server, and nothing outside the lab changes', async () => {
    backend = await connectBackend(url);
    const before = await catalogSnapshot(inspector);
    // As if a lexer had taken it for one SELECT: the bridge's backend must not run the rest.
    for (const [sql, cursor] of [
      ['SELECT 1 AS one; COMMIT; UPDATE public.victim SET v = 0', false],
      ['SELECT 1 AS one; COMMIT; UPDATE public.victim SET v = 0', true],
    ] as const) {
      const answer = (await backend.run({
        op: 'console',
        statement: { sql, command: 'SELECT', cursor },
        clockIso: '2030-01-01T15:00:00.000Z',
        maxRows: 10,
      })) as { kind: string; message?: string };
      expect(answer.kind, sql).toBe('error');
      expect(answer.message).toContain('cannot insert multiple commands into a prepared statement');
    }
    expect(await catalogSnapshot(inspector)).toEqual(before);
    await backend.close();
    backend = null;
  });
});

/**
 * The red team's console statements, as the page would send them: the bridge's checker refuses some with a
 * reason; the rest reach the server, logged in as the console's role, inside BEGIN READ ONLY … ROLLBACK. Each ends in a
 * clear message (or in rows that change nothing), and afterwards nothing outside the lab has changed.
 * `VICTIM_PID` stands for a backend of the tests' own, `LAB_PID` for one of the lab's workers.
 */
const REFUSED_BY_CHECKER: [string, RegExp][] = [
  ['SELECT 1 AS one --x\r; COMMIT; UPDATE public.victim SET v = 0; --\n', /One statement at a time/],
  ['SELECT 1; SELECT 2', /One statement at a time/],
  ['COMMIT', /its own BEGIN READ ONLY … ROLLBACK/],
  ['BEGIN', /its own BEGIN READ ONLY … ROLLBACK/],
  ['SAVEPOINT a', /its own BEGIN READ ONLY … ROLLBACK/],
  ['SET ROLE postgres', /Settings belong to the session/],
  ['RESET ROLE', /Settings belong to the session/],
  ['SET SESSION AUTHORIZATION postgres', /Settings belong to the session/],
  ["COPY (SELECT 1) TO PROGRAM 'id'", /COPY reads and writes files/],
  ["COPY public.victim FROM '/etc/passwd'", /COPY reads and writes files/],
  ['DO $$ BEGIN END $$', /Code blocks \(DO, CALL\) are not run/],
  ['CALL x()', /Code blocks \(DO, CALL\) are not run/],
  ['CREATE EXTENSION dblink', /The console is read-only: CREATE/],
  ['CREATE TABLE public.t (x int)', /The console is read-only: CREATE/],
  ['DROP TABLE public.victim', /The console is read-only: DROP/],
  ["ALTER SYSTEM SET work_mem = '1GB'", /The console is read-only: ALTER/],
  ['ALTER ROLE lease_lab_console SUPERUSER', /The console is read-only: ALTER/],
  ['GRANT postgres TO lease_lab_console', /The console is read-only: GRANT/],
  ['REVOKE ALL ON public.victim FROM PUBLIC', /The console is read-only: REVOKE/],
  ['TRUNCATE runs', /The console is read-only: TRUNCATE/],
  ["COMMENT ON TABLE runs IS 'x'", /The console is read-only: COMMENT/],
  ['REFRESH MATERIALIZED VIEW x', /The console is read-only: REFRESH/],
  ['LISTEN x', /LISTEN and NOTIFY are not run/],
  ["NOTIFY x, 'y'", /LISTEN and NOTIFY are not run/],
  ['PREPARE p AS SELECT 1', /Cursors and prepared statements/],
  ['DECLARE c CURSOR FOR SELECT 1', /Cursors and prepared statements/],
  ["ROLLBACK PREPARED 'x'", /Prepared transactions are the lab’s parked workers/],
  ['LOCK public.victim', /Locks belong to the workers/],
  ['VACUUM', /Maintenance commands are not run/],
  ['CHECKPOINT', /Maintenance commands are not run/],
  ['REINDEX TABLE runs', /CLUSTER and REINDEX wait/],
  ["LOAD 'x'", /Loading libraries is not possible/],
  ['DISCARD ALL', /DISCARD would reset/],
];

const REFUSED_BY_SERVER: [string, RegExp][] = [
  ['SELECT pg_terminate_backend(VICTIM_PID)', /must be a superuser to terminate superuser process/],
  ['SELECT pg_terminate_backend(LAB_PID)', /must be a superuser to terminate superuser process/],
  // The console's role may end its own backend, and only that: the next statement logs in again.
  ['SELECT pg_terminate_backend(pg_backend_pid())', /terminating connection due to administrator command/],
  ['SELECT pg_cancel_backend(VICTIM_PID)', /must be a superuser to cancel superuser query/],
  ["SELECT pg_create_physical_replication_slot('lease_lab_hostile')", /must be superuser or replication role/],
  ["SELECT pg_create_logical_replication_slot('x', 'test_decoding')", /must be superuser or replication role/],
  ["SELECT pg_drop_replication_slot('x')", /must be superuser or replication role/],
  ["SELECT pg_replication_origin_create('x')", /permission denied for function/],
  ['SELECT pg_stat_reset()', /permission denied for function pg_stat_reset/],
  ["SELECT pg_stat_reset_shared('bgwriter')", /permission denied for function pg_stat_reset_shared/],
  ['SELECT pg_reload_conf()', /permission denied for function pg_reload_conf/],
  ['SELECT pg_rotate_logfile()', /permission denied for function pg_rotate_logfile/],
  ['SELECT pg_switch_wal()', /permission denied for function pg_switch_wal/],
  ['SELECT pg_promote()', /permission denied for function pg_promote/],
  ['SELECT pg_log_backend_memory_contexts(pg_backend_pid())', /permission denied for function/],
  ["SELECT pg_import_system_collations('pg_catalog')", /must be superuser/],
  ["SELECT pg_read_file('PG_VERSION')", /permission denied for function pg_read_file/],
  ["SELECT pg_read_binary_file('global/pg_control')", /permission denied for function pg_read_binary_file/],
  ["SELECT pg_ls_dir('.')", /permission denied for function pg_ls_dir/],
  ["SELECT pg_stat_file('PG_VERSION')", /permission denied for function pg_stat_file/],
  ['SELECT pg_ls_logdir()', /permission denied for function pg_ls_logdir/],
  ['SELECT pg_ls_waldir()', /permission denied for function pg_ls_waldir/],
  ['SELECT pg_ls_tmpdir()', /permission denied for function pg_ls_tmpdir/],
  ['SELECT pg_current_logfile()', /permission denied for function pg_current_logfile/],
  ["SELECT lo_import('/etc/passwd')", /permission denied for function lo_import/],
  ["SELECT lo_export(1, '/tmp/lease-lab-x')", /permission denied for function lo_export/],
  ['SELECT rolpassword FROM pg_authid', /permission denied for table pg_authid/],
  ['TABLE pg_authid', /permission denied for table pg_authid/],
  ['VALUES ((SELECT rolpassword FROM pg_authid LIMIT 1))', /permission denied for table pg_authid/],
  ['SELECT * FROM pg_shadow', /permission denied for view pg_shadow/],
  ['SELECT * FROM pg_largeobject', /permission denied for table pg_largeobject/],
  ["SELECT current_setting('data_directory')", /pg_read_all_settings/],
  ['SHOW hba_file', /pg_read_all_settings/],
  ['SELECT * FROM public.victim', /permission denied for table victim/],
  ["SELECT nextval('public.victim_seq')", /permission denied for sequence victim_seq/],
  ["SELECT setval('public.victim_seq', 5)", /permission denied for sequence victim_seq/],
  ["SELECT set_config('role', 'postgres', true), pg_terminate_backend(VICTIM_PID)", /permission denied to set role "postgres"/],
  ["SELECT pg_catalog.\"set_config\"('session_authorization', 'postgres', false)", /permission denied to set session authorization/],
  ["SELECT U&\"set\\0063onfig\"('role', 'postgres', true)", /Unicode-escaped names/],
  ["SELECT pg_logical_emit_message(false, 'x', 'y')", /does not run pg_logical_emit_message/],
  [
    "SELECT set_config('transaction_read_only', 'off', true)",
    /transaction read-write mode must be set before any query|cannot set transaction read-write mode inside a read-only transaction/,
  ],
  ['SELECT pg_sleep(10)', /canceling statement due to statement timeout/],
  ['SELECT * FROM runs FOR UPDATE', /cannot execute SELECT FOR UPDATE in a read-only transaction/],
  ["UPDATE runs SET status = 'done'", /cannot execute UPDATE in a read-only transaction/],
  ['INSERT INTO public.victim VALUES (3, 3)', /cannot execute INSERT in a read-only transaction/],
  ['DELETE FROM public.victim', /cannot execute DELETE in a read-only transaction/],
  ['WITH x AS (DELETE FROM public.victim RETURNING *) SELECT * FROM x', /read-only transaction/],
  ["EXPLAIN ANALYZE UPDATE runs SET status = 'x'", /cannot execute UPDATE in a read-only transaction/],
  ["SELECT repeat('x', 5000000) AS share", /the result is too large for the console/],
  ['SELECT 1 /* unterminated', /unterminated \/\* comment/],
];

/** dblink, where the server has it: a connection from the console's role to the same server. */
const DBLINK: [string, RegExp][] = [
  [
    "SELECT public.dblink_exec('dbname=live_hostile user=postgres', 'UPDATE public.victim SET v = 0')",
    /password or GSSAPI delegated credentials required|password is required/,
  ],
  [
    "SELECT * FROM public.dblink('dbname=live_hostile user=postgres', 'SELECT 1') AS t(x int)",
    /password or GSSAPI delegated credentials required|password is required/,
  ],
  ["SELECT public.dblink_connect_u('dbname=live_hostile')", /permission denied for function dblink_connect_u/],
];

describe("the red team's console statements on a real server", () => {
  it('each ends in a clear message, and nothing outside the lab changes', { timeout: 120_000 }, async () => {
    const available = await inspector.query("SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'dblink'");
    // The Debian PostgreSQL the tests use ships dblink (postgresql-contrib is part of the server package).
    expect(available.rows[0].n).toBe(1);
    await inspector.query('CREATE EXTENSION IF NOT EXISTS dblink; CREATE SEQUENCE IF NOT EXISTS public.victim_seq');
    backend = await connectBackend(url);
    const victimPid = String((await inspector.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
    const labPid = String(
      (await inspector.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'lease_lab_A' AND datname = current_database()")).rows[0].pid,
    );
    const before = await catalogSnapshot(inspector);
    const attempt = async (raw: string): Promise<{ by: 'checker' | 'server'; kind: string; message: string }> => {
      const sql = raw.replaceAll('\\r', '\r').replaceAll('\\n', '\n').replaceAll('VICTIM_PID', victimPid).replaceAll('LAB_PID', labPid);
      try {
        const checked = checkRequest('console', { sql, clockIso: '2030-01-01T15:00:00.000Z', maxRows: 10 });
        const answer = (await backend!.run(checked)) as { kind: string; message?: string };
        return { by: 'server', kind: answer.kind, message: answer.message ?? '' };
      } catch (error) {
        if (!(error instanceof RefusedRequest)) throw error;
        return { by: 'checker', kind: 'refused', message: error.message };
      }
    };
    let cases = 0;
    for (const [sql, reason] of REFUSED_BY_CHECKER) {
      const result = await attempt(sql);
      expect(result.by, sql).toBe('checker');
      expect(result.message, sql).toMatch(reason);
      cases++;
    }
    for (const [sql, reason] of [...REFUSED_BY_SERVER, ...DBLINK]) {
      const result = await attempt(sql);
      expect(result, sql).toMatchObject({ by: 'server', kind: 'error' });
      expect(result.message, sql).toMatch(reason);
      cases++;
    }
    // Allowed, and harmless: their effects end with the console's ROLLBACK (advisory locks are released after it).
    for (const sql of [
      "SELECT pg_advisory_lock(hashtext('lease_lab.claim'))",
      'SELECT pg_try_advisory_lock(1), pg_advisory_lock_shared(2)',
      "SELECT pg_notify('x', 'y')",
      'SELECT txid_current()',
      'SELECT lo_create(0)',
      'SELECT 1 AS share, pg_cancel_backend(1)',
    ]) {
      expect(await attempt(sql), sql).toMatchObject({ by: 'server', kind: 'rows' });
      cases++;
    }
    expect(cases).toBeGreaterThanOrEqual(90);
    expect(await catalogSnapshot(inspector)).toEqual(before);
    expect((await inspector.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
    expect(await attempt('SELECT count(*)::int AS n FROM runs')).toMatchObject({ by: 'server', kind: 'rows' });
    await backend.close();
    backend = null;
    await inspector.query('DROP EXTENSION dblink; DROP SEQUENCE public.victim_seq');
  });
});

describe('a console answer larger than the bridge may fetch', () => {
  it('is refused by size, measured on the server before any row is sent, and the bridge answers the next statement', async () => {
    backend = await connectBackend(url);
    const consoleSql = async (sql: string, cursor = true) =>
      (await backend!.run({
        op: 'console',
        statement: { sql, command: sql.split(' ')[0]!.toUpperCase(), cursor },
        clockIso: '2030-01-01T15:00:00.000Z',
        maxRows: 10,
      })) as {
        kind: string;
        code?: string;
        message?: string;
        rows?: unknown[][];
        rowCount?: number;
      };
    // One value over the cap; many small rows over it together; and a query the lexer did not take for a cursor
    // (an alias named share): each is measured by the server, none is fetched.
    for (const [sql, cursor] of [
      ["SELECT repeat('x', 5000000) AS big", true],
      ["SELECT repeat('x', 10000) AS part FROM generate_series(1, 1000)", true],
      ["SELECT repeat('x', 5000000) AS share", false],
    ] as const) {
      const answer = await consoleSql(sql, cursor);
      expect(answer.kind, sql).toBe('error');
      expect(answer.code, sql).toBe('54000');
      expect(answer.message, sql).toContain('the result is too large for the console');
    }
    // Below the cap, the rows come back with their types and NULLs as before.
    expect(await consoleSql("SELECT 1 AS n, true AS yes, NULL::text AS nothing, '' AS empty, 'a\"b\\c' AS odd, now() AS at")).toMatchObject({
      kind: 'rows',
      rows: [[1, true, null, '', 'a"b\\c', '2030-01-01 15:00:00+00']],
      rowCount: 1,
    });
    expect(await consoleSql('SELECT g FROM generate_series(1, 1500) g')).toMatchObject({ kind: 'rows', rowCount: 1500 });
    // Postgres's error position still points into what the learner typed, through either cursor or none.
    expect(await consoleSql('SELECT nosuch FROM runs')).toMatchObject({ kind: 'error', code: '42703', position: 8 });
    expect(await consoleSql('SELECT 1 AS share, nosuch', false)).toMatchObject({ kind: 'error', code: '42703', position: 20 });
    // A write the lexer sent as it is still meets the read-only transaction, in Postgres's words.
    expect(await consoleSql('WITH gone AS (DELETE FROM runs RETURNING *) SELECT * FROM gone', false)).toMatchObject({ kind: 'error', code: '25006' });
    await backend.close();
    backend = null;
  });
});

/** The role the console logs in as on this database: lease_lab_console_<its oid>. */
async function consoleRole(): Promise<string> {
  return (await inspector.query("SELECT 'lease_lab_console_' || oid AS name FROM pg_database WHERE datname = current_database()")).rows[0].name;
}

type ConsoleReply = { kind: string; message: string; rows?: unknown[][] };
const asConsole = async (sql: string, cursor = false) =>
  (await backend!.run({ op: 'console', statement: { sql, command: 'SELECT', cursor }, clockIso: '2030-01-01T15:00:00.000Z', maxRows: 10 })) as ConsoleReply;

describe("the live console's own login", () => {
  it("logs in as lease_lab_console_<oid>: LOGIN and nothing else, a member of no role; a superuser's powers stay out of reach, nothing outside the lab changes", async () => {
    backend = await connectBackend(url);
    const role = await consoleRole();
    const before = await catalogSnapshot(inspector);
    const victimPid = (await inspector.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    expect((await asConsole('SELECT current_user, session_user')).rows).toEqual([[role, role]]);
    expect(
      (
        await inspector.query(
          `SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls,
                  (SELECT count(*)::int FROM pg_auth_members WHERE member = r.oid) AS member_of,
                  shobj_description(r.oid, 'pg_authid') AS note
           FROM pg_roles r WHERE rolname = $1`,
          [role],
        )
      ).rows,
    ).toEqual([
      {
        rolcanlogin: true,
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        rolreplication: false,
        rolbypassrls: false,
        member_of: 0,
        note: "Lease Lab live mode (npm run live): the console's login; dropped with the schema lease_lab",
      },
    ]);
    expect((await asConsole('SELECT count(*)::int FROM runs')).kind).toBe('rows');
    // As the README says: other sessions are listed, their query text is not.
    expect((await asConsole(`SELECT query FROM pg_stat_activity WHERE pid = ${victimPid}`)).rows).toEqual([['<insufficient privilege>']]);
    for (const sql of [
      `SELECT pg_terminate_backend(${victimPid})`,
      "SELECT pg_create_physical_replication_slot('lease_lab_hostile')",
      'SELECT pg_stat_reset()',
      'SELECT pg_reload_conf()',
      "SELECT pg_read_file('PG_VERSION')",
      "SELECT pg_ls_dir('.')",
      'SELECT rolpassword FROM pg_authid',
      'SELECT * FROM public.victim',
      'SET ROLE postgres',
    ]) {
      const answer = await asConsole(sql);
      expect(answer.kind, sql).toBe('error');
      expect(answer.message, sql).toMatch(/permission denied|must be superuser|must be a superuser/);
    }
    expect((await asConsole('SELECT pg_advisory_lock(42)')).kind).toBe('rows');
    expect(await catalogSnapshot(inspector)).toEqual(before);
    expect((await inspector.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
    await backend.close();
    backend = null;
  });

  it("refuses, by the server's privileges, the red team's escapes through SQL held in a string: set_config('role', …), reading a file, ending another backend, pg_authid, a replication slot", async () => {
    await inspector.query(
      "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lease_lab_victim') THEN CREATE ROLE lease_lab_victim LOGIN; END IF; END $$",
    );
    const victimUrl = new URL(url);
    victimUrl.username = 'lease_lab_victim';
    const victim = new pg.Client({ connectionString: victimUrl.toString() });
    await victim.connect();
    victim.on('error', () => undefined);
    try {
      backend = await connectBackend(url);
      const victimPid = (await victim.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const labPid = (await inspector.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'lease_lab_A' AND datname = current_database()")).rows[0]
        .pid as number;
      const before = await catalogSnapshot(inspector);
      const inString = (sql: string) => `query_to_xml('${sql.replaceAll("'", "''")}', true, false, '')`;
      const switchBack = inString("SELECT set_config('role', 'postgres', true)");
      const harms = [
        "SELECT pg_read_file('/etc/passwd')",
        `SELECT pg_terminate_backend(${victimPid})`,
        `SELECT pg_terminate_backend(${labPid})`,
        'SELECT rolname, rolpassword FROM pg_authid',
        "SELECT pg_create_physical_replication_slot('lease_lab_escape')",
        "SELECT pg_create_logical_replication_slot('lease_lab_escape', 'test_decoding')",
      ];
      const attempts = [
        // The red team's statement, as the issue gives it.
        `SELECT ${switchBack}, ${inString("SELECT pg_read_file('/etc/passwd')")}`,
        ...harms.map((harm) => `SELECT ${switchBack}, ${inString(harm)}`),
        ...harms.map((harm) => `SELECT ${inString(harm)}`),
        ...harms,
      ];
      for (const sql of attempts) {
        for (const cursor of [true, false]) {
          const answer = await asConsole(sql, cursor);
          expect(answer.kind, sql).toBe('error');
          expect(answer.message, sql).toMatch(
            /^(permission denied|must be superuser|must be a superuser|must be a member of the role whose process is being terminated)/,
          );
          expect(JSON.stringify(answer), sql).not.toContain('root:');
        }
      }
      expect((await victim.query('SELECT 1 AS alive')).rows).toEqual([{ alive: 1 }]);
      expect(await catalogSnapshot(inspector)).toEqual(before);
      expect((await inspector.query("SELECT count(*)::int AS n FROM pg_replication_slots WHERE slot_name = 'lease_lab_escape'")).rows).toEqual([{ n: 0 }]);
      expect(await backend.run({ op: 'runs' })).toEqual([]);
      await backend.close();
      backend = null;
    } finally {
      await victim.end().catch(() => undefined);
    }
  });
});

describe('two bridges on two databases of one server', () => {
  it("each console logs in as its database's own role; stopping one and dropping its schema leaves the other's console working", async () => {
    const otherUrl = await testDatabaseUrl('live_hostile_other');
    const first = await connectBackend(url);
    const second = await connectBackend(otherUrl);
    try {
      const ask = async (bridge: LiveBackend) =>
        (await bridge.run({
          op: 'console',
          statement: { sql: 'SELECT current_user', command: 'SELECT', cursor: true },
          clockIso: '2030-01-01T15:00:00.000Z',
          maxRows: 10,
        })) as ConsoleReply;
      const [mine, theirs] = [(await ask(first)).rows?.[0]?.[0], (await ask(second)).rows?.[0]?.[0]];
      expect(mine).toBe(await consoleRole());
      expect(theirs).toMatch(/^lease_lab_console_\d+$/);
      expect(theirs).not.toBe(mine);
      await second.close();
      expect(await dropSchema(otherUrl)).toBe('dropped');
      expect((await inspector.query('SELECT rolname FROM pg_roles WHERE rolname IN ($1, $2) ORDER BY 1', [mine, theirs])).rows).toEqual([{ rolname: mine }]);
      expect((await ask(first)).rows).toEqual([[mine]]);
    } finally {
      await first.close();
    }
  });
});

describe("the console's timeouts", () => {
  it('hold for every statement the bridge sends, also after the query has lifted them for its later rows', async () => {
    backend = await connectBackend(url);
    // Its first 1,000 rows come at once and switch statement_timeout off; the 1,003rd would take 3 s, counted by a MOVE (the first FETCH reads a row or two ahead).
    for (const lift of [
      "set_config('statement_timeout', '0', true)",
      `query_to_xml('SELECT set_config(''statement_timeout'', ''0'', true)', true, false, '')`,
    ]) {
      const sql = `SELECT CASE WHEN g = 1 THEN ${lift} END AS lifted, CASE WHEN g > 1002 THEN pg_sleep(3) END AS slow FROM generate_series(1, 1003) g`;
      const answer = await asConsole(sql, true);
      expect(answer, sql).toMatchObject({ kind: 'error', message: 'canceling statement due to statement timeout' });
    }
    expect((await asConsole('SELECT 1 AS one', true)).rows).toEqual([[1]]);
    await backend.close();
    backend = null;
  });
});

describe('a connecting role without CREATEROLE', () => {
  const plainUrl = () => {
    const plain = new URL(url);
    plain.username = 'lease_lab_plain';
    return plain.toString();
  };

  beforeAll(async () => {
    await inspector.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lease_lab_plain') THEN CREATE ROLE lease_lab_plain LOGIN NOCREATEROLE NOSUPERUSER; END IF;
    END $$`);
    await inspector.query('GRANT CREATE ON DATABASE live_hostile TO lease_lab_plain');
    // The earlier cases' schema and console role belong to the superuser; this role makes its own.
    await dropSchema(url);
    expect((await inspector.query("SELECT rolcreaterole, rolsuper FROM pg_roles WHERE rolname = 'lease_lab_plain'")).rows).toEqual([
      { rolcreaterole: false, rolsuper: false },
    ]);
  });

  afterAll(async () => {
    await inspector.query('REVOKE CREATE ON DATABASE live_hostile FROM lease_lab_plain');
  });

  it('gets live mode with the console off, saying why and what an administrator can run', async () => {
    const before = await catalogSnapshot(inspector);
    backend = await connectBackend(plainUrl());
    const answer = await asConsole('SELECT 1', true);
    expect(answer.kind).toBe('error');
    expect(answer.message).toContain(`the console is off on this server: it logs in as a role of its own, ${await consoleRole()}`);
    expect(answer.message).toContain('permission denied to create role');
    expect(answer.message).toContain('ALTER ROLE "lease_lab_plain" CREATEROLE');
    expect(answer.message).toContain('The rest of live mode works.');
    expect(answer.message.split('\n')).toHaveLength(1);
    // The rest of live mode works: the workers are the connecting role's.
    expect(await backend.run({ op: 'runs' })).toEqual([]);
    await backend.close();
    backend = null;
    expect(await dropSchema(plainUrl())).toBe('dropped');
    expect(await catalogSnapshot(inspector)).toEqual(before);
  });

  it("with CREATEROLE, logs the console in as its own role, which cannot end the connecting role's workers; stopping drops the role", async () => {
    await inspector.query('ALTER ROLE lease_lab_plain CREATEROLE');
    try {
      backend = await connectBackend(plainUrl());
      const role = await consoleRole();
      const before = await catalogSnapshot(inspector);
      expect((await asConsole('SELECT current_user', true)).rows).toEqual([[role]]);
      // As the connecting role (the old SET ROLE's way back), any statement could end the lab's workers: they are its own backends.
      const killed = await asConsole(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'lease_lab_plain' AND application_name LIKE 'lease\\_lab\\_%'",
        true,
      );
      expect(killed.kind).toBe('error');
      expect(killed.message).toMatch(/permission denied to terminate process|must be a member of the role whose process is being terminated/);
      expect(await catalogSnapshot(inspector)).toEqual(before);
      expect(await backend.run({ op: 'runs' })).toEqual([]);
      await backend.close();
      backend = null;
      expect(await dropSchema(plainUrl())).toBe('dropped');
      expect((await inspector.query('SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1', [role])).rows).toEqual([{ n: 0 }]);
    } finally {
      await inspector.query('ALTER ROLE lease_lab_plain NOCREATEROLE');
    }
  });
});

describe("a console role that is not the lab's to log in as", () => {
  const offBecause = async (reason: string | RegExp) => {
    backend = await connectBackend(url);
    const answer = await asConsole('SELECT 1', true);
    expect(answer.kind).toBe('error');
    expect(answer.message).toContain('the console is off on this server');
    expect(answer.message).toMatch(reason);
    expect(await backend.run({ op: 'runs' })).toEqual([]);
    await backend.close();
    backend = null;
  };

  it("keeps the console off when the lab's role was since made a member of another role or given attributes", async () => {
    backend = await connectBackend(url);
    await backend.close();
    backend = null;
    const role = await consoleRole();
    await inspector.query(`GRANT pg_signal_backend TO ${role}`);
    try {
      await offBecause(`the role ${role} has been made a member of pg_signal_backend`);
    } finally {
      await inspector.query(`REVOKE pg_signal_backend FROM ${role}`);
    }
    await inspector.query(`ALTER ROLE ${role} CREATEDB`);
    try {
      await offBecause(`the role ${role} has been given attributes`);
    } finally {
      await inspector.query(`ALTER ROLE ${role} NOCREATEDB`);
    }
    expect(await dropSchema(url)).toBe('dropped');
  });

  it("keeps the console off, and never drops the role, when a role of that name is someone else's", async () => {
    const role = await consoleRole();
    await inspector.query(`CREATE ROLE ${role} LOGIN`);
    try {
      await offBecause(`a role named ${role} exists that the lab did not create`);
      expect(await dropSchema(url)).toBe('dropped');
      expect((await inspector.query('SELECT count(*)::int AS n FROM pg_roles WHERE rolname = $1', [role])).rows).toEqual([{ n: 1 }]);
    } finally {
      await inspector.query(`DROP ROLE ${role}`);
    }
  });

  it('keeps the console off, saying what the server needs, when the server refuses its login', async () => {
    // No CONNECT for PUBLIC: the superuser's own connections still open, the console's login does not.
    await inspector.query('REVOKE CONNECT ON DATABASE live_hostile FROM PUBLIC');
    try {
      await offBecause(
        /the server refused its login \(.*permission denied for database "live_hostile"\).*pg_hba\.conf must let it log in with a password.*CONNECT on the database/,
      );
    } finally {
      await inspector.query('GRANT CONNECT ON DATABASE live_hostile TO PUBLIC');
    }
    expect(await dropSchema(url)).toBe('dropped');
  });
});

describe("a server that drops the bridge's connections (as a restart does)", () => {
  it('is reconnected: the next calls are answered', async () => {
    backend = await connectBackend(url);
    const ours = `application_name LIKE 'lease\\_lab\\_%' AND datname = current_database() AND pid <> pg_backend_pid()`;
    const ended = await inspector.query(`SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${ours}) t`);
    expect(ended.rows[0].n).toBeGreaterThan(0);
    // Until the backends have exited and their sockets closed.
    for (let i = 0; i < 100; i++) {
      if ((await inspector.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${ours}`)).rows[0].n === 0) break;
      await new Promise((done) => setTimeout(done, 50));
    }
    await new Promise((done) => setTimeout(done, 100));
    expect(await backend.run({ op: 'runs' })).toEqual([]);
    const answer = (await backend.run({
      op: 'console',
      statement: { sql: 'SELECT 1 AS one', command: 'SELECT', cursor: true },
      clockIso: '2030-01-01T15:00:00.000Z',
      maxRows: 10,
    })) as { kind: string };
    expect(answer.kind).toBe('rows');
    await backend.close();
    backend = null;
  });
});

describe('dropping the lab schema', () => {
  it('refuses, naming it, while an object of the user depends on the lab, and drops nothing', async () => {
    backend = await connectBackend(url);
    await backend.close();
    backend = null;
    await inspector.query('CREATE VIEW public.lab_runs AS SELECT run_id FROM lease_lab.runs');
    await inspector.query('CREATE TABLE public.child (run_id int REFERENCES lease_lab.runs (run_id))');
    const before = await catalogSnapshot(inspector);
    const refusal = await dropSchema(url).then(
      () => 'dropped',
      (error: Error) => error.message,
    );
    expect(refusal).toContain('view lab_runs depends on table lease_lab.runs');
    expect(refusal).toContain('nothing was dropped');
    expect(await catalogSnapshot(inspector)).toEqual(before);
    expect((await inspector.query("SELECT to_regclass('lease_lab.runs') AS t")).rows[0].t).toBe('lease_lab.runs');
    await inspector.query('DROP VIEW public.lab_runs; DROP TABLE public.child');
    expect(await dropSchema(url)).toBe('dropped');
    expect((await inspector.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'lease_lab'")).rows[0].n).toBe(0);
  });
});

/** The command line, as the user runs it (npm run sim -- …), without waiting for it: several run at once. */
async function simAsync(...args: string[]): Promise<CliAnswer> {
  return await simStarted(args).answer;
}

describe('the command line beside live mode on one database', () => {
  it(
    "works in a schema of each run's own: two runs at once and the bridge never touch each other, and the runs leave nothing behind",
    { timeout: 180_000 },
    async () => {
      backend = await connectBackend(url);
      const seed = JSON.stringify([
        {
          run_id: 7,
          tenant: 'acme',
          status: 'pending',
          lease_generation: 0,
          cancel_requested: false,
          created_at: '2030-01-01T14:00:00Z',
          progress: 0,
          cost_cents: 0,
        },
      ]);
      await backend.run({ op: 'reset', seedJson: seed, sessions: ['A', 'B'] });
      const before = await catalogSnapshot(inspector);
      const runs = await Promise.all([
        simAsync('run', 'race', '--db', url, '--json'),
        simAsync('run', 'lock-wait', '--strategy', 'for-update', '--db', url, '--json'),
      ]);
      for (const run of runs) {
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(JSON.parse(run.stdout).database).toBe('postgres');
      }
      // The bridge's table still holds what the bridge put there, and its schema is still there.
      expect(((await backend.run({ op: 'runs' })) as { run_id: number }[]).map((row) => row.run_id)).toEqual([7]);
      expect(await catalogSnapshot(inspector)).toEqual(before);
      expect((await inspector.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'lease\\_lab%' ORDER BY 1")).rows).toEqual([{ nspname: 'lease_lab' }]);
      await backend.close();
      backend = null;
      expect(await dropSchema(url)).toBe('dropped');
    },
  );
});

describe('hostile command lines against a real server', () => {
  it("each ends in one line and exit code 2, or in a run in its own schema; nothing of the user's changes", { timeout: 180_000 }, async () => {
    await inspector.query(
      'CREATE TABLE IF NOT EXISTS public.runs (id int PRIMARY KEY, note text); INSERT INTO public.runs VALUES (1, $$mine$$) ON CONFLICT DO NOTHING',
    );
    await inspector.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'lease_lab_nocreate') THEN CREATE ROLE lease_lab_nocreate LOGIN; END IF; END $$`,
    );
    await inspector.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    const before = await catalogSnapshot(inspector);
    const target = (change: (u: URL) => void) => {
      const u = new URL(url);
      change(u);
      return u.toString();
    };
    const searchPath = target((u) => u.searchParams.set('options', '-c search_path=public'));
    const missing = target((u) => {
      u.pathname = '/no_such_database';
    });
    const injected = target((u) => {
      u.pathname = '/live_hostile; DROP TABLE public.runs';
    });
    const noCreate = target((u) => {
      u.username = 'lease_lab_nocreate';
    });
    const [pathRun, missingRun, injectedRun, noCreateRun, notUrl, badSchedule] = await Promise.all([
      simAsync('run', 'race', '--db', searchPath, '--json'),
      simAsync('run', 'race', '--db', missing),
      simAsync('run', 'race', '--db', injected),
      simAsync('run', 'race', '--db', noCreate),
      simAsync('run', 'race', '--db', 'mysql://root@localhost/x'),
      simAsync('run', 'race', '--db', url, '--schedule', 'A,B;DROP TABLE public.runs'),
    ]);
    // A search_path in the URL changes nothing: every connection is put in the run's own schema.
    expect(pathRun.stderr).toBe('');
    expect(pathRun.code).toBe(0);
    expect(JSON.stringify(JSON.parse(pathRun.stdout).anomalies)).toContain('duplicate-execution');
    for (const [run, says] of [
      [missingRun, /database "no_such_database" does not exist/],
      [injectedRun, /does not exist/],
      [noCreateRun, /cannot create the schema lease_lab_cli_\d+_[0-9a-f]+ in .*: the role may not create a schema there/],
      [notUrl, /--db takes pglite or a postgres:\/\/ URL/],
      [badSchedule, /schedule/i],
    ] as const) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(says);
    }
    expect(await catalogSnapshot(inspector)).toEqual(before);
    expect((await inspector.query("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname LIKE 'lease\\_lab\\_cli%'")).rows).toEqual([{ n: 0 }]);
    expect((await inspector.query('SELECT note FROM public.runs')).rows).toEqual([{ note: 'mine' }]);
  });
});
