/**
 * The lab's database on a real PostgreSQL server: one connection per worker (and one for the operator),
 * exactly as a fleet of real workers would have. Nothing is emulated here. A statement that must wait
 * for a row lock is really sent and really waits; the lab only notices (the backend shows a Lock wait in
 * pg_stat_activity) and hands control back to the scheduler while the statement stays in flight.
 *
 * A separate observer connection reads the committed table, looks at who waits for whom, ends a
 * crashed worker's backend and resets the data.
 *
 * The engine records the table after every step, and a statement that waited is a step of its own,
 * recorded when the engine resumes it. On a real server that statement finishes on its own the moment
 * the lock is released, before the engine gets to it. So a write that may wait (another session has a
 * transaction open) is sent inside BEGIN … COMMIT, committed when the engine collects its answer: its
 * effect appears at its own step, as it does on PGlite, and the statement itself is exactly the one shown.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { type LockEvidenceRow, OPERATOR_SESSION, type Row, type RunRow, type StatementOutcome } from '../sim/types';
import { bridgeSql } from '../sql/bridge';
import { sqlText } from '../sql/registry';
import type { LabStatement } from '../strategies';
import type { HeldLock, LabDatabase, SessionId, StatementRequest, WakeOrder } from './port';
import { hbaLineFor, type LoginSecret, loginUrl, nameLoginRole, newLoginSecret } from './postgres-login-role';
import { checkServerVersion, firstLine, openClient, redactUrl, settledAfterError, userFacing } from './postgres-connection';
import { normalizeRow, toOutcomeError } from './values';
import { isPrepared, type PipelinePiece, pipeline } from './postgres-pipeline';
import type { EngineFact } from '../sim/narration';

const APP_PREFIX = 'lease_lab_';
const OBSERVER_NAME = `${APP_PREFIX}observer`;
/** Waits before each try to reopen the observer's connection; the last repeats until it is back. */
const OBSERVER_RECONNECT_DELAYS_MS = [0, 250, 500, 1000, 2000];
/** How long a statement waits for the observer to be reconnected before it fails (and the page falls back to PGlite). */
const OBSERVER_WAIT_MS = 4000;
const OPERATOR: SessionId = OPERATOR_SESSION;
const TERMINATE_WAIT_MS = 5000;
/** A statement that has not answered gets looked at after this long, then at doubling intervals up to the cap. */
const FIRST_LOOK_MS = 1;
/**
 * The first look at a statement that no other session of the lab can make wait (nobody else has a
 * transaction open, or it is a read): only someone outside the lab could, and is still seen. Looking
 * at once cost a query on pg_stat_activity for most statements, which answer within a few ms.
 */
const QUIET_FIRST_LOOK_MS = 50;
const LOOK_CAP_MS = 16;
/** A lock wait is reported only if a second look, this much later, still shows it with the same holders. */
const CONFIRM_MS = 2;
/** A statement that neither answers nor waits for a lock this long is a fault, not a lesson. */
const GIVE_UP_MS = 30_000;
/** SQLSTATE 42501: the server's "permission denied". */
const INSUFFICIENT_PRIVILEGE = '42501';

/** One name per statement text, the same on every connection (see named). */
const statementNames = new Map<string, string>();

/**
 * One of the lab's own statements (the clock, the looks at locks and rows, ending a backend) as a named
 * prepared statement: each connection parses and plans it once and then only runs it. Planning was most of
 * what the server spent on a step: backend-lock-wait's look at pg_stat_activity took 2.8 ms to plan and
 * 0.14 ms to run, held-locks-postgres 0.7 ms against 0.04. A worker's statement, the one the lesson is
 * about, is sent unnamed (see send).
 */
function named(text: string, values?: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `${APP_PREFIX}${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** What an in-flight statement finally did. Never rejects, so a crash can abandon it safely. */
/** `deleted`: how many rows a completion that deletes its run removed (LabStatement.deletesRun), which is its answer. */
/** `runs`: the committed table read right after a statement that committed on its own (see send). */
type Answer = { ok: true; rows: Row[]; deleted?: number; runs?: RunRow[] } | { ok: false; error: unknown };

/**
 * How a statement's transaction ends once it answers. claim: keep it open with rows (its row locks held),
 * COMMIT with none, ROLLBACK on an error. write: a single write that may wait, COMMIT or ROLLBACK.
 * read: sent alone, nothing to end. explicit: a statement of a claim transaction at REPEATABLE READ or
 * SERIALIZABLE (StatementRequest.isolation): kept open with rows, and after an error too (the worker's own
 * rollback step ends it, as production code must), COMMIT with none.
 */
type Ending = 'claim' | 'write' | 'read' | 'explicit';

/** The BEGIN of an explicit claim transaction at each level above READ COMMITTED. */
const BEGIN_AT = { 'repeatable-read': 'transaction-begin-repeatable-read', serializable: 'transaction-begin-serializable' } as const;

interface InFlight {
  answer: Promise<Answer>;
  ending: Ending;
}

export interface PostgresLabOptions {
  /**
   * 'lease_lab' (live mode): the table and the clock live in the lab's own schema, created when missing;
   * an existing lease_lab schema is used only if it carries the lab's comment (live-schema.sql).
   * 'own' (the command line's --db): a schema of this lab's own, named for the process
   * (lease_lab_cli_<pid>_<random>), marked, and dropped without CASCADE on close: never live mode's, nor
   * another run's.
   * 'public' (the default, for the ground-truth tests): runs in public, the clock in sim.
   */
  schema?: 'public' | 'lease_lab' | 'own';
  /** On a lock wait, attach the server's pg_locks rows that prove it (live mode shows them to the learner). */
  lockEvidence?: boolean;
  /** The workers' statement_timeout (the command line's --statement-timeout); none when absent. */
  statementTimeoutMs?: number;
}

/** How long the end of a command line run keeps trying to reach a restarting server to drop the run's schema. */
const DROP_RETRY_MS = 10_000;
/** How long closing waits for the server to cancel the workers' statements. */
const CANCEL_WAIT_MS = 2000;

/** The comment live-schema.sql puts on lease_lab: the mark that the schema is the lab's to reuse or drop. */
export const LAB_SCHEMA_NOTE = /COMMENT ON SCHEMA lease_lab IS '([^']*)'/.exec(sqlText('live-schema'))?.[1] ?? '';

/**
 * The statements of schema.sql that make the lab's tables, without the ones that make the sim schema and
 * its clock (live-schema.sql makes lease_lab.now() instead). Run with lease_lab first on the search_path,
 * they create exactly the tables PGlite and the CLI have, inside lease_lab: one definition, never two.
 */
export function labTableStatements(): string[] {
  const statements = sqlText('schema')
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
  return statements.filter((statement) => !/\bSCHEMA IF NOT EXISTS sim\b|\bFUNCTION sim\.now\(\)/.test(statement));
}

/**
 * Creates the lab's schema afresh (an existing one is dropped first, but only if it carries the lab's
 * comment: a leftover from a bridge that was killed, or from an older schema.sql). The observer's
 * search_path is then the lab's schema. A role that may not create a schema, or a lease_lab schema that
 * someone else made, gets one line saying so.
 */
async function ensureLabSchema(client: pg.Client, url: string): Promise<void> {
  const state = await client.query<{ note: string | null }>(sqlText('live-schema-state'));
  const existing = state.rows[0];
  if (existing && existing.note !== LAB_SCHEMA_NOTE) {
    throw userFacing(`${redactUrl(url)} already has a schema named lease_lab that the lab did not create; the lab will not touch it`);
  }
  await client.query(sqlText('transaction-begin'));
  try {
    if (existing) await client.query(sqlText('live-schema-drop'));
    await client.query(sqlText('live-schema'));
    await client.query(sqlText('live-session-setup'));
    for (const statement of labTableStatements()) await client.query(statement);
    await client.query(sqlText('transaction-commit'));
  } catch (error) {
    await client.query(sqlText('transaction-rollback')).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    const why = code === '42501' ? `the role may not create a schema there (it needs CREATE on the database): ${firstLine(error, url)}` : firstLine(error, url);
    throw userFacing(`cannot create the schema lease_lab in ${redactUrl(url)}: ${why}`);
  }
}

/**
 * The command line's own schema (own-schema-create.sql) with the lab's tables in it, and the role of the
 * same name its workers log in as (own-role-create.sql), in one transaction: both or neither. The observer
 * is left in the schema.
 */
async function createOwnSchema(client: pg.Client, url: string, name: string, secret: LoginSecret): Promise<void> {
  await client.query(sqlText('transaction-begin'));
  let made = 'schema';
  try {
    await client.query(bridgeSql('own-schema-session'), [name]);
    await client.query(bridgeSql('own-schema-create'));
    for (const statement of labTableStatements()) await client.query(statement);
    made = 'role';
    await nameLoginRole(client, name, secret);
    await client.query(bridgeSql('own-role-create'));
    await client.query(sqlText('transaction-commit'));
  } catch (error) {
    await client.query(sqlText('transaction-rollback')).catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    const needs =
      made === 'schema'
        ? 'the role may not create a schema there (it needs CREATE on the database)'
        : "the role may not create the run's login role (it needs CREATEROLE: its workers log in as a role that may touch only the run's schema)";
    throw userFacing(`cannot create the ${made} ${name} in ${redactUrl(url)}: ${code === '42501' ? `${needs}: ` : ''}${firstLine(error, url)}`);
  }
}

/**
 * A statement of the run refused by the server's privileges: under --db only the user's own statements can
 * meet that (the run's role may touch nothing outside its schema), so it is bad input, not an outcome.
 */
function reachedOutside(error: unknown, schema: string, url: string): Error {
  return userFacing(
    `the server refused a statement of yours: ${firstLine(error, url)}; under --db the workers log in as the run's role ${schema}, which may use only the schema ${schema} (write runs and now() without a schema)`,
  );
}

/** Drops the lab's schema if it is there and is the lab's (see ensureLabSchema). */
export async function dropLabSchema(client: pg.Client, url: string): Promise<'dropped' | 'absent'> {
  const state = await client.query<{ note: string | null }>(sqlText('live-schema-state'));
  const existing = state.rows[0];
  if (!existing) return 'absent';
  if (existing.note !== LAB_SCHEMA_NOTE) throw userFacing(`the schema lease_lab in ${redactUrl(url)} was not created by the lab; it was left as it is`);
  try {
    await client.query(sqlText('live-schema-drop'));
  } catch (error) {
    // The server's DETAIL names what depends on the lab's objects ("view public.v depends on table lease_lab.runs").
    const detail = String((error as { detail?: unknown }).detail ?? '')
      .split('\n')
      .filter(Boolean)
      .join('; ');
    throw userFacing(`cannot drop the schema lease_lab in ${redactUrl(url)}: ${firstLine(error, url)}${detail ? ` (${detail})` : ''}; nothing was dropped`);
  }
  return 'dropped';
}

interface Session {
  id: SessionId;
  client: pg.Client;
  pid: number;
  /** The virtual clock last set on this connection. */
  clock: string | null;
  inTransaction: boolean;
  /** The statement that was reported blocked and is still waiting on the server. */
  waiting: InFlight | null;
  /** The backend is gone (crash) or the connection broke: reconnect before the next use. */
  dead: boolean;
  /** The connection broke under the lab (not a crash it caused): its transaction is gone. */
  lost: boolean;
  /** Settles when the connection has closed. */
  closed: Promise<void>;
  /** A statement of this connection took advisory try-locks: a session-level one outlives its transaction, so a reset unlocks them. */
  advisory: boolean;
}

export class PostgresLab implements LabDatabase {
  readonly kind = 'postgres' as const;
  private readonly sessions = new Map<SessionId, Session>();

  /** The observer's connection ended (a server restart, a terminated backend): reopen it before its next use. */
  private observerGone = false;
  private closing = false;

  private constructor(
    private readonly url: string,
    private observerClient: pg.Client,
    private readonly options: PostgresLabOptions,
    /** With schema 'own': the schema's name, dropped on close, and the name of the role the workers log in as. */
    readonly ownSchema: string | null = null,
    /** Where the workers' connections go: with schema 'own', logged in as the run's role; otherwise `url`. */
    private readonly workerUrl: string = url,
  ) {
    this.watchObserver(observerClient);
  }

  /** Puts a connection in the lab's schema: runs and now() resolve to the lab's own. */
  private async enterSchema(client: pg.Client): Promise<void> {
    if (this.ownSchema) await client.query(bridgeSql('own-schema-session'), [this.ownSchema]);
    else await client.query(sqlText(this.options.schema === 'lease_lab' ? 'live-session-setup' : 'session-setup'));
  }

  private watchObserver(client: pg.Client): void {
    client.on('end', () => {
      if (client !== this.observerClient || this.closing) return;
      this.observerGone = true;
      // A command line run does not reconnect: its open transactions are gone with the server, and the run stops.
      if (!this.ownSchema) this.reconnecting ??= this.reconnectObserver();
    });
  }

  /** The observer's reconnection in progress, or null: it starts the moment the connection ends. */
  private reconnecting: Promise<pg.Client> | null = null;
  private reconnectAttempts = 0;
  private reconnectProblem: string | null = null;

  /** Whether the lab's connection to the server is up, or being reopened (the page says so while it is). */
  connectionState(): { state: 'up' } | { state: 'reconnecting'; attempts: number; problem: string | null } {
    return this.observerGone ? { state: 'reconnecting', attempts: this.reconnectAttempts, problem: this.reconnectProblem } : { state: 'up' };
  }

  /** Reopens the observer after its connection ended (a server restart): tries again and again, waiting longer each time up to 2 s. */
  private async reconnectObserver(): Promise<pg.Client> {
    this.reconnectAttempts = 0;
    for (;;) {
      await sleep(OBSERVER_RECONNECT_DELAYS_MS[Math.min(this.reconnectAttempts, OBSERVER_RECONNECT_DELAYS_MS.length - 1)]!, undefined);
      // Never rejects (nobody may be waiting for it): a lab that is closing keeps its ended connection.
      if (this.closing) return this.observerClient;
      this.reconnectAttempts++;
      let client: pg.Client | null = null;
      try {
        client = await openClient(this.url, OBSERVER_NAME);
        if (this.options.schema === 'lease_lab' || this.ownSchema) await this.enterSchema(client);
        await client.query(sqlText('observer-setup'));
        this.observerClient.end().catch(() => undefined);
        this.observerClient = client;
        this.observerGone = false;
        this.reconnectProblem = null;
        this.reconnecting = null;
        this.watchObserver(client);
        return client;
      } catch (error) {
        this.reconnectProblem = firstLine(error, this.url);
        await client?.end().catch(() => undefined);
      }
    }
  }

  /**
   * The observer; after its connection ended, the reconnected one, waited for up to OBSERVER_WAIT_MS: a
   * statement does not wait for longer, and its error carries the learner back to PGlite.
   */
  private async observer(): Promise<pg.Client> {
    if (!this.observerGone || this.closing) return this.observerClient;
    if (this.ownSchema) throw this.connectionLost();
    this.reconnecting ??= this.reconnectObserver();
    const reconnected = await Promise.race([this.reconnecting, sleep(OBSERVER_WAIT_MS, null)]);
    if (reconnected) return reconnected;
    throw userFacing(`the connection to ${redactUrl(this.url)} was lost and reconnecting failed: ${this.reconnectProblem ?? 'no answer'}`);
  }

  /** Connects the observer and one connection per worker and for the operator; creates the schema if it is missing. */
  static async connect(url: string, workers: string[], options: PostgresLabOptions = {}): Promise<PostgresLab> {
    const ownSchema = options.schema === 'own' ? `lease_lab_cli_${process.pid}_${randomBytes(4).toString('hex')}` : null;
    const secret = ownSchema ? newLoginSecret() : null;
    const observer = await openClient(url, OBSERVER_NAME);
    try {
      await checkServerVersion(observer, url);
      if (options.schema === 'lease_lab') {
        await ensureLabSchema(observer, url);
      } else if (options.schema === 'own') {
        await createOwnSchema(observer, url, ownSchema!, secret!);
      } else {
        const present = await observer.query<{ present: boolean }>(sqlText('runs-table-present'));
        // The observer keeps the default search_path, so the table lands in public, next to the sim schema.
        if (!present.rows[0]?.present) await observer.query(sqlText('schema'));
      }
      await observer.query(sqlText('observer-setup'));
    } catch (error) {
      await observer.end().catch(() => undefined);
      if ((error as { userFacing?: boolean }).userFacing) throw error;
      throw userFacing(`cannot set up the lab's tables in ${redactUrl(url)}: ${firstLine(error, url)}`);
    }
    const lab = new PostgresLab(url, observer, options, ownSchema, ownSchema ? loginUrl(url, ownSchema, secret!.password) : url);
    try {
      await lab.ensureSessions([...workers, OPERATOR]);
    } catch (error) {
      await lab.close();
      throw error;
    }
    return lab;
  }

  async reset(seedJson: string, sessions: SessionId[]): Promise<void> {
    this.afterChange = null;
    await Promise.all([...this.sessions.values()].map((session) => this.endEverything(session)));
    await this.ensureSessions(sessions);
    // One round trip: a simple query cannot carry parameters, so the seed travels as a quoted literal.
    const observer = await this.observer();
    const seed = sqlText('seed-runs').replace('$1', () => observer.escapeLiteral(seedJson));
    // TRUNCATE, not DELETE: a fresh heap at every reset, so a claim without ORDER BY meets the rows in the
    // order they were seeded, whatever ran before. After DELETE the dead rows' space is reused by history,
    // and such a claim took another run than on PGlite (claim corpus 13, race B,A,A,B,B,B,B,A).
    const results = await observer.query(statements(sqlText('truncate-runs'), seed, sqlText('runs-snapshot')));
    // Nobody has a transaction open: no row locks to read.
    this.afterChange = { runs: runRowsOf(resultsOf(results).at(-1)!), locks: [] };
  }

  /**
   * The committed table (and the row locks) as read in the same round trip as the COMMIT, ROLLBACK or reset
   * that just changed them, for the engine's runs() and locks() right after it: a round trip each fewer for
   * most steps. Any call that may change the data again drops it first.
   */
  private afterChange: { runs: RunRow[]; locks: LockRow[] | null } | null = null;

  execute(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    this.afterChange = null;
    return this.send(session, request, this.mayWait(session, request.statement) ? 'write' : 'read');
  }

  executeClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    this.afterChange = null;
    return this.send(session, request, request.isolation ? 'explicit' : 'claim');
  }

  async retryBlocked(id: SessionId): Promise<StatementOutcome> {
    this.afterChange = null;
    const session = this.sessions.get(id);
    const inFlight = session?.waiting;
    if (!session || !inFlight) throw new Error(`${id} is not waiting`);
    return this.follow(session, inFlight);
  }

  /**
   * Waiters woken at once race on the server for the row: usually the first to have waited gets it, but the
   * operating system decides. The one that got it finishes its statement and, inside the lab's BEGIN, keeps
   * the row locked until the lab collects its answer and ends its transaction (an UPDATE that waited and
   * then matched no row keeps its lock too), while the others wait for it. So each waiter is looked at until
   * it has answered or is seen waiting, and the ones that answered are collected first.
   */
  async wakeOrder(waiting: SessionId[]): Promise<WakeOrder> {
    const looks = await Promise.all(
      waiting.map(async (id) => {
        const session = this.sessions.get(id);
        if (!session?.waiting) return { id, answered: false, holders: [] as SessionId[] };
        const answer = await this.answerOrLockWait(session, session.waiting.answer);
        return { id, answered: 'ok' in answer, holders: 'ok' in answer ? [] : answer.holders };
      }),
    );
    const answered = looks.filter((look) => look.answered).map((look) => look.id);
    const order = [...answered, ...looks.filter((look) => !look.answered).map((look) => look.id)];
    const overtaken = looks.some((look, index) => look.holders.some((holder) => answered.includes(holder) && waiting.indexOf(holder) > index));
    return { order, overtaken };
  }

  commit(id: SessionId): Promise<StatementOutcome> {
    return this.endOpenTransaction(id, 'transaction-commit');
  }

  rollback(id: SessionId): Promise<StatementOutcome> {
    return this.endOpenTransaction(id, 'transaction-rollback');
  }

  /** Ends the session's open transaction by COMMIT or ROLLBACK; with none open, PostgreSQL's own 25P01. */
  private async endOpenTransaction(id: SessionId, ending: 'transaction-commit' | 'transaction-rollback'): Promise<StatementOutcome> {
    this.afterChange = null;
    const session = this.sessions.get(id);
    if (!session?.inTransaction || session.dead) return { status: 'error', code: '25P01', message: 'there is no transaction in progress' };
    try {
      await this.endTransaction(session, ending);
      return { status: 'ok', rows: [], rowCount: 0 };
    } catch (error) {
      return toOutcomeError(error);
    } finally {
      session.inTransaction = false;
    }
  }

  async crash(id: SessionId): Promise<void> {
    this.afterChange = null;
    const session = this.sessions.get(id);
    if (!session || session.dead) return;
    session.dead = true;
    // A backend closes its connection as it exits, after its transaction has rolled back and its locks
    // are free. (pg_terminate_backend's own wait polls in 100 ms steps: a crash cost ~90 ms that way.)
    const result = await (await this.observer()).query<{ terminated: boolean }>(named(sqlText('terminate-backend'), [session.pid]));
    const exited = result.rows[0]?.terminated === true && (await Promise.race([session.closed.then(() => true), sleep(TERMINATE_WAIT_MS, false)]));
    if (!exited) throw new Error(`${id}'s backend (pid ${session.pid}) did not exit within ${TERMINATE_WAIT_MS} ms`);
    // The statement it was waiting with dies with it; its answer is an error nobody reads.
    await session.waiting?.answer;
    forget(session);
  }

  async runs(): Promise<RunRow[]> {
    if (this.afterChange) return this.afterChange.runs;
    return runRowsOf(await (await this.observer()).query(named(sqlText('runs-snapshot'))));
  }

  /**
   * Row locks of this lab's open transactions. A session whose statement is still in flight is left out:
   * for the engine that statement has not happened yet (it waits), and its locks show from the step that
   * resumes it.
   */
  async locks(): Promise<HeldLock[]> {
    // Only an open transaction holds row locks after its statement; with none, there is nothing to ask.
    if (![...this.sessions.values()].some((session) => session.inTransaction && !session.waiting)) return [];
    const rows = this.afterChange?.locks ?? (await (await this.observer()).query<LockRow>(named(sqlText('held-locks-postgres')))).rows;
    const bySession = new Map<SessionId, HeldLock>();
    for (const row of rows) {
      const session = sessionOf(row.session);
      const mine = session !== null ? this.sessions.get(session) : undefined;
      if (!session || !mine || String(mine.pid) !== row.handle || mine.waiting) continue;
      const lock = bySession.get(session) ?? { session, handle: row.handle, runIds: [] };
      lock.runIds.push(row.run_id);
      bySession.set(session, lock);
    }
    return [...bySession.values()];
  }

  takeEngineFact(): EngineFact | null {
    return null;
  }

  /** Closing once, however many times it is asked for (a signal and the run's own ending may both ask). */
  private closed: Promise<void> | null = null;

  close(): Promise<void> {
    this.closed ??= this.closeOnce();
    return this.closed;
  }

  private async closeOnce(): Promise<void> {
    // From here on nothing reconnects and no session is opened again.
    this.closing = true;
    await this.cancelStatements();
    const clients = [...[...this.sessions.values()].map((s) => s.client)];
    this.sessions.clear();
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    // The workers are gone, so nothing of theirs holds the table: the run's own schema and role can go.
    const dropFailure = this.ownSchema ? await this.dropOwnSchema() : null;
    await this.observerClient.end().catch(() => undefined);
    if (dropFailure) {
      const detail = String((dropFailure as { detail?: unknown }).detail ?? '')
        .split('\n')
        .filter(Boolean)
        .join('; ');
      throw userFacing(
        `cannot drop the run's schema ${this.ownSchema} in ${redactUrl(this.url)}: ${firstLine(dropFailure, this.url)}${detail ? ` (${detail})` : ''}; nothing was dropped`,
      );
    }
  }

  /**
   * Stops whatever the workers' backends are running (a runaway claim, a lock wait) before their
   * connections end: a server runs a statement on after its client has gone.
   */
  private async cancelStatements(): Promise<void> {
    if (this.observerGone) return;
    const pids = [...this.sessions.values()].filter((session) => !session.dead && session.pid > 0).map((session) => session.pid);
    const cancels = Promise.all(pids.map((pid) => this.observerClient.query(named(sqlText('cancel-backend'), [pid])).catch(() => undefined)));
    await Promise.race([cancels, sleep(CANCEL_WAIT_MS, undefined)]);
  }

  /**
   * Every way a command line run ends drops its schema and role here (own-schema-drop.sql): on the observer's connection, or after a
   * server restart on a new one, tried again for up to DROP_RETRY_MS. The error when it could not be dropped.
   */
  private async dropOwnSchema(): Promise<unknown> {
    const drop = async (client: pg.Client) => {
      await client.query(bridgeSql('own-schema-session'), [this.ownSchema]);
      await client.query(bridgeSql('own-schema-drop'));
    };
    if (!this.observerGone) {
      try {
        await drop(this.observerClient);
        return null;
      } catch (error) {
        // A server error (something depends on the table) is the answer; a broken connection gets another try.
        if (typeof (error as { severity?: unknown }).severity === 'string') return error;
      }
    }
    const deadline = Date.now() + DROP_RETRY_MS;
    let problem: unknown = null;
    while (Date.now() < deadline) {
      let client: pg.Client | null = null;
      try {
        client = await openClient(this.url, OBSERVER_NAME);
        await drop(client);
        return null;
      } catch (error) {
        problem = error;
        if (client && typeof (error as { severity?: unknown }).severity === 'string') return error;
        await sleep(250, undefined);
      } finally {
        await client?.end().catch(() => undefined);
      }
    }
    return problem;
  }

  private connectionLost(): Error {
    return userFacing(`the connection to ${redactUrl(this.url)} was lost (a server restart?); the run stopped, since its open transactions are gone`);
  }

  /**
   * Can this statement wait for a row lock? Only a write can (the statements PGlite has to probe), and
   * only while another session has a transaction open: nobody else holds a row lock otherwise.
   */
  private mayWait(id: SessionId, statement: LabStatement): boolean {
    if (statement.probe === null) return false;
    return [...this.sessions.values()].some((other) => other.id !== id && other.inTransaction && !other.dead);
  }

  private async send(id: SessionId, request: StatementRequest, ending: Ending): Promise<StatementOutcome> {
    const session = await this.session(id);
    if (session.waiting) throw new Error(`${id} is still waiting for a row lock; it cannot run another statement`);
    if (request.statement.advisoryLocks) session.advisory = true;
    const setClock = sqlText('set-clock');
    // The clock travels with the statement (see pipeline) once this connection has it prepared; the first time alone.
    const clockMoves = session.clock !== request.clockIso;
    if (clockMoves && !isPrepared(session.client, named(setClock).name!, setClock)) {
      await session.client.query(named(setClock, [request.clockIso]));
      session.clock = request.clockIso;
    }
    // A later statement of an explicit claim transaction goes on in the transaction its first one began.
    // BEGIN comes first: a statement before it would take the snapshot a REPEATABLE READ transaction keeps
    // (the server refuses the BEGIN then). The clock's SELECT takes it instead, just before the statement in
    // the same round trip: no session of the lab can commit in between.
    const begin: PipelinePiece[] = [];
    // So does the UPDATE of a two-statement claim, in the transaction its SELECT began (StatementRequest.continues).
    if (ending !== 'read' && !((ending === 'explicit' || request.continues) && session.inTransaction)) {
      begin.push({ text: sqlText(request.isolation ? BEGIN_AT[request.isolation] : 'transaction-begin') });
      session.inTransaction = true;
    }
    const clock: PipelinePiece[] = session.clock !== request.clockIso ? [{ ...named(setClock), values: [request.clockIso] }] : [];
    // A statement sent alone commits on its own: the committed table it leaves is read right after it, in
    // the same round trip, as endTransaction reads it after a COMMIT (afterChange).
    const snapshot: PipelinePiece[] = ending === 'read' ? [named(sqlText('runs-snapshot'))] : [];
    // The worker's own statement stays unnamed, planned afresh with its values each time: PGlite reuses a
    // generic plan (README, "How the lab runs on PGlite"), and the two must agree.
    const statement: PipelinePiece = { text: request.statement.text, values: request.params };
    const answer: Promise<Answer> = pipeline(session.client, [...begin, ...clock, statement, ...snapshot]).then(
      (results) => {
        if (clock.length > 0) session.clock = request.clockIso;
        const result = results[begin.length + clock.length]!;
        return {
          ok: true,
          rows: result.rows.map(normalizeRow),
          ...(request.statement.deletesRun ? { deleted: result.rowCount ?? 0 } : {}),
          ...(snapshot.length > 0 ? { runs: runRowsOf(results.at(-1)!) } : {}),
        };
      },
      async (error: unknown) => {
        // The error undid the clock setting sent with it (and a transaction's ROLLBACK will undo one made in it).
        session.clock = null;
        await settledAfterError(session.client);
        return { ok: false, error };
      },
    );
    const quiet = ending === 'read' || !this.othersOpen(session);
    return this.follow(session, { answer, ending }, quiet ? QUIET_FIRST_LOOK_MS : FIRST_LOOK_MS);
  }

  /** Waits for the statement's answer unless it is (still) waiting for a row lock: then reports blocked, leaving it in flight. */
  private async follow(session: Session, inFlight: InFlight, firstLook = FIRST_LOOK_MS): Promise<StatementOutcome> {
    const answer = await this.answerOrLockWait(session, inFlight.answer, firstLook);
    if (!('ok' in answer)) {
      session.waiting = inFlight;
      if (this.options.lockEvidence) return { ...answer, lockEvidence: await this.lockEvidence(session) };
      return answer;
    }
    session.waiting = null;
    return this.finish(session, inFlight.ending, answer);
  }

  private async answerOrLockWait(
    session: Session,
    answer: Promise<Answer>,
    firstLook = FIRST_LOOK_MS,
  ): Promise<Answer | { status: 'blocked'; holders: SessionId[]; advisory?: true }> {
    let waited = 0;
    for (let delay = firstLook; waited < GIVE_UP_MS; delay = Math.min(delay * 2, LOOK_CAP_MS)) {
      const early = await answerWithin(answer, delay);
      if (early) return early;
      waited += delay;
      const wait = await this.lockHolders(session);
      if (wait === null) continue;
      // A waiter just granted its lock still shows the Lock wait until it runs again; a second look tells.
      const late = await answerWithin(answer, CONFIRM_MS);
      if (late) return late;
      const again = await this.lockHolders(session);
      if (again !== null && again.holders.join() === wait.holders.join())
        return { status: 'blocked', holders: wait.holders, ...(wait.advisory ? { advisory: true as const } : {}) };
    }
    throw new Error(`${session.id}'s statement neither answered nor waited for a row lock within ${GIVE_UP_MS / 1000} s`);
  }

  /** The sessions this session's backend waits for, and whether for an advisory lock, when it waits for a lock someone holds; otherwise null. */
  private async lockHolders(session: Session): Promise<{ holders: SessionId[]; advisory: boolean } | null> {
    const result = await (await this.observer()).query<{ wait_event_type: string | null; wait_event: string | null; holders: string[] }>(
      named(sqlText('backend-lock-wait'), [session.pid]),
    );
    const row = result.rows[0];
    if (row?.wait_event_type !== 'Lock' || row.holders.length === 0) return null;
    return { holders: row.holders.map((name) => sessionOf(name) ?? name).sort(), advisory: row.wait_event === 'advisory' };
  }

  /** What pg_locks says about the session's wait: its ungranted lock and who holds that lock. */
  private async lockEvidence(session: Session): Promise<LockEvidenceRow[]> {
    const result = await (await this.observer()).query(named(sqlText('live-lock-evidence'), [session.pid]));
    return result.rows.map((row) => ({
      session: sessionOf(String(row.session ?? '')) ?? String(row.session ?? ''),
      pid: Number(row.pid),
      locktype: String(row.locktype),
      relation: row.relation ?? null,
      page: row.page ?? null,
      tuple: row.tuple ?? null,
      transactionid: row.transactionid ?? null,
      mode: String(row.mode),
      granted: row.granted === true,
    }));
  }

  /** Ends the statement's transaction as its kind requires (see Ending) and reports its answer. */
  private async finish(session: Session, ending: Ending, answer: Answer): Promise<StatementOutcome> {
    const keepOpen = (ending === 'claim' && answer.ok && answer.rows.length > 0) || (ending === 'explicit' && (!answer.ok || answer.rows.length > 0));
    if (ending !== 'read' && !keepOpen) {
      await this.endTransaction(session, answer.ok ? 'transaction-commit' : 'transaction-rollback');
      session.inTransaction = false;
    }
    // Row locks of other open transactions are not read with it (null: locks() asks when it needs them).
    if (answer.ok && answer.runs) this.afterChange = { runs: answer.runs, locks: this.othersOpen(session) ? null : [] };
    if (!answer.ok && this.ownSchema && (answer.error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) {
      throw reachedOutside(answer.error, this.ownSchema, this.url);
    }
    if (!answer.ok) return toOutcomeError(answer.error);
    return { status: 'ok', rows: answer.rows, rowCount: answer.deleted ?? answer.rows.length };
  }

  /**
   * COMMIT or ROLLBACK, and in the same round trip (a pipeline) the committed table and, while another
   * transaction is open, its row locks (named statements: planning the look at pg_stat_activity cost more
   * than running it): what the engine reads next (afterChange). The session's
   * connection reads the same table as the observer's, and a statement still waiting for a lock commits
   * nothing before the engine resumes it (see the module comment); the rows it locks meanwhile are not
   * counted (locks() leaves out a session whose statement is in flight).
   */
  private async endTransaction(session: Session, end: 'transaction-commit' | 'transaction-rollback'): Promise<void> {
    // A clock set inside the transaction (see send) lasts only if it commits: a COMMIT of a failed transaction answers ROLLBACK.
    const clockSetIn = session.clock;
    session.clock = null;
    const readsLocks = this.othersOpen(session);
    const pieces = [{ text: sqlText(end) }, named(sqlText('runs-snapshot')), ...(readsLocks ? [named(sqlText('held-locks-postgres'))] : [])];
    const ended = await pipeline(session.client, pieces).catch(async (error: unknown) => {
      await settledAfterError(session.client);
      throw error;
    });
    const [endedBy, runs, locks] = ended;
    if (endedBy?.command === 'COMMIT') session.clock = clockSetIn;
    this.afterChange = { runs: runRowsOf(runs!), locks: readsLocks ? (locks!.rows as LockRow[]) : [] };
  }

  /** Whether another session of the lab has a transaction open (and so may hold row locks). */
  private othersOpen(session: Session): boolean {
    return [...this.sessions.values()].some((other) => other !== session && other.inTransaction && !other.dead);
  }

  /** Before a reset: stop a waiting statement, roll back an open transaction, release advisory locks, drop a broken connection. */
  private async endEverything(session: Session): Promise<void> {
    if (session.dead) return;
    try {
      if (session.waiting) {
        await (await this.observer()).query(named(sqlText('cancel-backend'), [session.pid]));
        await session.waiting.answer;
        session.waiting = null;
      }
      if (session.inTransaction) {
        session.clock = null;
        await session.client.query(sqlText('transaction-rollback'));
        session.inTransaction = false;
      }
      // A session-level advisory lock is held by the connection until it ends or unlocks it, past any ROLLBACK.
      if (session.advisory) {
        await session.client.query(named(sqlText('advisory-unlock-all')));
        session.advisory = false;
      }
    } catch {
      // Whatever state it is in, a new connection is a clean one.
      if (session.dead) forget(session);
      else await this.crash(session.id);
    }
  }

  private async ensureSessions(ids: SessionId[]): Promise<void> {
    const results = await Promise.allSettled(ids.map((id) => this.session(id)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** The session's live connection, opened (or reopened after a crash) on first use. */
  private async session(id: SessionId): Promise<Session> {
    const existing = this.sessions.get(id);
    if (existing && !existing.dead) return existing;
    if (this.closing || (this.ownSchema && existing?.lost)) throw this.connectionLost();
    if (existing) {
      forget(existing);
      this.sessions.delete(id);
    }
    if (!/^[A-Za-z0-9_]+$/.test(id)) throw new Error(`unexpected session name ${id}`);
    const client = await openClient(this.workerUrl, APP_PREFIX + id).catch((error: unknown) => {
      if (!this.ownSchema) throw error;
      throw userFacing(
        `the run's role ${this.ownSchema} could not log in (${(error as Error).message}): its workers log in as it; pg_hba.conf must allow a password (or trust) login for it, e.g. the line "${hbaLineFor(this.url, 'all')}" (each run's role is new), and it needs CONNECT on the database (PUBLIC has it by default)`,
      );
    });
    const closed = new Promise<void>((resolve) => client.once('end', () => resolve()));
    const session: Session = { id, client, pid: 0, clock: null, inTransaction: false, waiting: null, dead: false, lost: false, closed, advisory: false };
    const broke = () => {
      if (!session.dead && !this.closing) session.lost = true;
      session.dead = true;
    };
    client.on('error', broke);
    client.once('end', broke);
    await this.enterSchema(client);
    if (this.options.statementTimeoutMs) await client.query(bridgeSql('statement-timeout'), [String(this.options.statementTimeoutMs)]);
    const pid = await client.query<{ pid: number }>(sqlText('backend-pid'));
    session.pid = Number(pid.rows[0]?.pid);
    // Prepared here, so that a pipeline can use them by name (it prepares none itself): the looks at the
    // table and at row locks that follow a statement or a COMMIT in its round trip.
    await client.query(named(sqlText('runs-snapshot')));
    await client.query(named(sqlText('held-locks-postgres')));
    this.sessions.set(id, session);
    return session;
  }
}

/** A held-locks-postgres.sql row: a lab session's backend and a row whose xmax is its transaction. */
interface LockRow {
  session: string;
  handle: string;
  run_id: number;
}

/** One simple query of several statements, each ended by exactly one semicolon (an empty statement would answer too). */
function statements(...texts: string[]): string {
  return texts.map((text) => `${text.trim().replace(/;$/, '')};`).join('\n');
}

/** The results of a simple query of several statements, one per statement. */
function resultsOf(answer: pg.QueryResult | pg.QueryResult[]): pg.QueryResult[] {
  return Array.isArray(answer) ? answer : [answer];
}

/** The rows of runs-snapshot.sql. */
function runRowsOf(result: pg.QueryResult): RunRow[] {
  return result.rows.map((row) => normalizeRow(row) as unknown as RunRow);
}

async function answerWithin(answer: Promise<Answer>, ms: number): Promise<Answer | null> {
  return Promise.race([answer, sleep(ms, null)]);
}

function forget(session: Session): void {
  session.waiting = null;
  session.inTransaction = false;
  session.clock = null;
  session.client.end().catch(() => undefined);
}

/** 'lease_lab_A' → 'A'; a backend that is not one of the lab's sessions → null. */
function sessionOf(applicationName: string): SessionId | null {
  if (!applicationName.startsWith(APP_PREFIX) || applicationName === OBSERVER_NAME) return null;
  return applicationName.slice(APP_PREFIX.length);
}
