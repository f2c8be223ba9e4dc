/**
 * `npm run sim -- spec FILE --db URL`: a spec's sessions on a real PostgreSQL server, one connection per
 * session and one control connection, as PostgreSQL's isolation tester opens them, all in a throwaway
 * database of the run's own (lease_lab_spec_<pid>_<random>, marked with a note), logged in as a role of the
 * run's own (same name, spec-role-create.sql) that owns that database and nothing else: the spec's setup
 * creates its tables there, and its SQL can do only what PostgreSQL lets that role do. The database and the
 * role are dropped when the run ends, on every path (a failure, an interrupt), and only while they still
 * carry the run's marks.
 *
 * Every value comes back as the server's text (the simple query protocol, no type parsing), which is what
 * the isolation tester prints.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SessionNotice, StepOutcome, SpecDriver } from '../spec/run';
import type { StepReply } from '../spec/output';
import { bridgeSql } from '../sql/bridge';
import { sqlText } from '../sql/registry';
import { checkServerVersion, firstLine, openClient, redactUrl, settledAfterError, userFacing } from './postgres-connection';
import { hbaLineFor, loginUrl, nameLoginRole, newLoginSecret } from './postgres-login-role';

/** The note on the run's database: the mark that it is the run's to drop. */
const SPEC_DATABASE_NOTE = 'Lease Lab spec run (npm run sim -- spec --db); dropped when the run ends';

interface Field {
  name: string;
}

/**
 * One piece of SQL sent with the simple query protocol, its answers kept in order: each statement's rows
 * (text, as the server sent them), or the error that stopped it. pg's own Query would drop the rows of the
 * statements before an error; the isolation tester prints them.
 */
class TextQuery {
  readonly replies: StepReply[] = [];
  private columns: string[] | null = null;
  private rows: (string | null)[][] = [];
  readonly done: Promise<StepOutcome>;
  private finish!: (outcome: StepOutcome) => void;
  private failed: unknown = null;

  constructor(readonly text: string) {
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.columns = message.fields.map((field) => field.name);
    this.rows = [];
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows.push(message.fields.map((value) => (value === null ? null : String(value))));
  }

  handleCommandComplete(): void {
    if (this.columns) this.replies.push({ kind: 'rows', result: { columns: this.columns, rows: this.rows } });
    this.columns = null;
    this.rows = [];
  }

  handleEmptyQuery(): void {}

  handleError(error: unknown): void {
    const e = error as { severity?: unknown; code?: unknown; message?: unknown };
    // The server always sends the SQLSTATE (field C); XX000, internal_error, as pglite-wire.ts reads a missing one.
    if (typeof e.severity === 'string')
      this.replies.push({ kind: 'error', severity: e.severity, code: typeof e.code === 'string' ? e.code : 'XX000', message: String(e.message) });
    else this.failed = error;
    // The error ends the answer: the server skips the step's later statements, and pg hands the coming
    // ReadyForQuery to no query once one has failed.
    this.finish({ replies: this.replies });
  }

  handleReadyForQuery(): void {
    this.finish({ replies: this.replies });
  }

  /** The driver's own failure (a connection lost), not an answer of the server. */
  get brokenBy(): unknown {
    return this.failed;
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('the lab does not run COPY FROM STDIN in a spec');
  }
  handleCopyData(): void {}
}

interface SessionConnection {
  client: pg.Client;
  pid: number;
  notices: SessionNotice[];
  /** The step in flight, with the answer once it came. */
  running: { query: TextQuery; answered: Promise<StepOutcome>; outcome: StepOutcome | null } | null;
}

function noticeOf(message: { severity?: string; message?: string }): SessionNotice {
  return { severity: message.severity ?? 'NOTICE', message: message.message ?? '' };
}

async function runText(client: pg.Client, sql: string): Promise<StepOutcome> {
  const query = new TextQuery(sql);
  client.query(query as unknown as pg.QueryConfig);
  const outcome = await settled(client, query);
  if (query.brokenBy) throw query.brokenBy;
  return outcome;
}

/**
 * The step's answer once its backend is done with it: after an error, only once the failed transaction's
 * locks are gone (settledAfterError), as the isolation tester reads a step's results up to ReadyForQuery.
 */
async function settled(client: pg.Client, query: TextQuery): Promise<StepOutcome> {
  const outcome = await query.done;
  if (query.brokenBy === null && outcome.replies.some((reply) => reply.kind === 'error')) await settledAfterError(client);
  return outcome;
}

/** The URL with another database in place of its own. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.href;
}

export class PostgresSpecDriver implements SpecDriver {
  private constructor(
    private readonly url: string,
    private readonly admin: pg.Client,
    readonly database: string,
    private readonly controlClient: pg.Client,
    private readonly sessions: Map<string, SessionConnection>,
  ) {}

  /**
   * Creates the run's database and opens the control connection and one connection per session there. A
   * server it cannot reach, or a role that may not create a database, is one line (userFacing).
   */
  static async open(url: string, sessionNames: string[]): Promise<PostgresSpecDriver> {
    const admin = await openClient(url, 'lease_lab_spec_admin');
    let created: string | null = null;
    const opened: pg.Client[] = [];
    try {
      await checkServerVersion(admin, url);
      const name = `lease_lab_spec_${process.pid}_${randomBytes(4).toString('hex')}`;
      const secret = newLoginSecret();
      await admin.query(sqlText('transaction-begin'));
      try {
        await nameLoginRole(admin, name, secret);
        await admin.query(bridgeSql('spec-role-create'));
        await admin.query(sqlText('transaction-commit'));
      } catch (error) {
        await admin.query(sqlText('transaction-rollback')).catch(() => undefined);
        const code = (error as { code?: unknown }).code;
        const why = code === '42501' ? `the role may not create roles (it needs CREATEROLE): ${firstLine(error, url)}` : firstLine(error, url);
        throw userFacing(`cannot create the spec's login role on ${redactUrl(url)}: ${why}`);
      }
      created = name;
      const statements = await admin.query<{ create_database: string; mark_database: string }>(bridgeSql('spec-database-create'), [name, SPEC_DATABASE_NOTE]);
      const { create_database, mark_database } = statements.rows[0]!;
      try {
        await admin.query(create_database);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const why = code === '42501' ? `the role may not create a database (it needs CREATEDB): ${firstLine(error, url)}` : firstLine(error, url);
        throw userFacing(`cannot create the spec's throwaway database on ${redactUrl(url)}: ${why}`);
      }
      await admin.query(mark_database);
      const target = loginUrl(withDatabase(url, name), name, secret.password);
      const login = async (applicationName: string) => {
        try {
          return await openClient(target, applicationName);
        } catch (error) {
          const message = (error as Error).message;
          if (/authentication failed|no pg_hba\.conf entry/.test(message)) {
            throw userFacing(
              `${message}; the spec's sessions log in as a role of the run's own with a password: let it in with a pg_hba.conf line such as "${hbaLineFor(url, 'all')}"`,
            );
          }
          throw error;
        }
      };
      const control = await login('lease_lab_spec_control');
      opened.push(control);
      const sessions = new Map<string, SessionConnection>();
      for (const sessionName of sessionNames) {
        const client = await login(`lease_lab_spec_${sessionName}`.slice(0, 63));
        opened.push(client);
        const pid = Number((await client.query<{ pid: number }>(sqlText('backend-pid'))).rows[0]!.pid);
        const connection: SessionConnection = { client, pid, notices: [], running: null };
        client.on('notice', (message) => connection.notices.push(noticeOf(message)));
        sessions.set(sessionName, connection);
      }
      return new PostgresSpecDriver(url, admin, name, control, sessions);
    } catch (error) {
      for (const client of opened) await client.end().catch(() => undefined);
      if (created) await dropDatabase(admin, created).catch(() => undefined);
      await admin.end().catch(() => undefined);
      throw error;
    }
  }

  private session(name: string): SessionConnection {
    const found = this.sessions.get(name);
    if (!found) throw new Error(`no connection for session ${name}`);
    return found;
  }

  control(sql: string): Promise<StepOutcome> {
    return runText(this.controlClient, sql);
  }

  runOnSession(session: string, sql: string): Promise<StepOutcome> {
    return runText(this.session(session).client, sql);
  }

  send(session: string, sql: string): void {
    const connection = this.session(session);
    const query = new TextQuery(sql);
    connection.client.query(query as unknown as pg.QueryConfig);
    const running = { query, answered: settled(connection.client, query), outcome: null as StepOutcome | null };
    connection.running = running;
    void running.answered.then((outcome) => {
      running.outcome = outcome;
    });
  }

  async poll(session: string, ms: number): Promise<StepOutcome | null> {
    const connection = this.session(session);
    const running = connection.running;
    if (!running) throw new Error(`session ${session} runs no step`);
    if (!running.outcome) {
      let timer: NodeJS.Timeout | undefined;
      const elapsed = new Promise((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([running.answered, elapsed]);
      clearTimeout(timer);
      // Let the .then above record the answer if it just came.
      await Promise.resolve();
    }
    if (!running.outcome) return null;
    if (running.query.brokenBy) throw running.query.brokenBy;
    connection.running = null;
    return running.outcome;
  }

  async isBlocked(session: string): Promise<boolean> {
    const pids = [...this.sessions.values()].map((s) => s.pid);
    const result = await this.controlClient.query<{ blocked: boolean }>(bridgeSql('spec-session-blocked'), [this.session(session).pid, pids]);
    return result.rows[0]?.blocked === true;
  }

  async mayProgress(session: string): Promise<boolean> {
    const result = await this.controlClient.query<{ pid: number; state: string | null }>(bridgeSql('spec-session-blockers'), [this.session(session).pid]);
    return result.rows.some((row) => row.state === 'active');
  }

  async cancel(session: string): Promise<void> {
    await this.controlClient.query(sqlText('cancel-backend'), [this.session(session).pid]);
  }

  takeNotices(session: string): SessionNotice[] {
    const connection = this.session(session);
    const taken = connection.notices;
    connection.notices = [];
    return taken;
  }

  async reset(session: string): Promise<void> {
    const connection = this.session(session);
    // A transaction the permutation left open would hold its locks into the teardown. Outside one, ROLLBACK
    // only warns: that warning is the lab's, not the spec's, so it is not reported.
    await runText(connection.client, sqlText('transaction-rollback'));
    connection.notices = [];
  }

  /** Closes every connection and drops the run's database (only while it carries the run's note). */
  async close(): Promise<void> {
    for (const connection of this.sessions.values()) await connection.client.end().catch(() => undefined);
    await this.controlClient.end().catch(() => undefined);
    try {
      await dropDatabase(this.admin, this.database);
    } catch (error) {
      throw userFacing(`cannot drop the spec's database and role ${this.database} on ${redactUrl(this.url)}: ${firstLine(error, this.url)}`);
    } finally {
      await this.admin.end().catch(() => undefined);
    }
  }
}

/** Drops the run's database, then its role, each only while it carries the run's mark. */
async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  const found = await admin.query<{ drop_database: string | null; drop_role: string | null }>(bridgeSql('spec-database-drop'), [name, SPEC_DATABASE_NOTE]);
  const { drop_database, drop_role } = found.rows[0]!;
  if (drop_database) await admin.query(drop_database);
  if (drop_role) await admin.query(drop_role);
}
