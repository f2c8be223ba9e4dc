/**
 * The SQL console on a real server: the learner's one statement (already checked by the console's rules)
 * on a connection of its own that logs in as the console's own role (console-role-create.sql: LOGIN, a
 * new random password at every start, SELECT on the lab's table and nothing else), inside BEGIN READ ONLY
 * … ROLLBACK, with the lab's schema first on the search_path and now() at the step's clock. What the
 * statement may do is what PostgreSQL lets that role do: it never had the bridge's role to switch back to. Unlike PGlite, a real server can end a statement by itself:
 * statement_timeout stops a runaway one before the page's watchdog would, and lock_timeout makes one that
 * would queue behind a worker's lock fail at once.
 *
 * It sees what any other session sees: committed rows and the workers' real locks in pg_locks. A worker's
 * open claim is an ordinary open transaction here, so pg_prepared_xacts is empty.
 */
import type pg from 'pg';
import { consoleError, consoleValue } from './console-answer';
import type { ConsoleAnswer, ConsoleValue } from './port';
import { parseRecordText } from './record-text';
import { bridgeSql, sizedDeclare } from '../sql/bridge';
import { type LoginSecret, hbaLineFor, loginUrl, nameLoginRole, newLoginSecret } from './postgres-login-role';
import { firstLine, openClient, redactUrl, userFacing } from './postgres-connection';
import { CONSOLE_ROWS_FETCHED, type ConsoleStatement, lexSql } from '../sql/console';
import { sqlText } from '../sql/registry';

const APPLICATION_NAME = 'lease_lab_console';
/** SQLSTATE 42501: the connecting role may not create or change roles. */
const INSUFFICIENT_PRIVILEGE = '42501';
/** SQLSTATE 55000, as console-role-create.sql raises it: a role of that name is someone else's, or was given powers. */
const NOT_THE_LABS_TO_USE = '55000';
/** The bridge's own short connection that sets up (or drops) the console's role. */
const SETUP_NAME = 'lease_lab_console_setup';
/** Below the page's 2 s watchdog, so the learner gets Postgres's own "canceling statement due to statement timeout". */
const CONSOLE_STATEMENT_TIMEOUT = '1500ms';
const CONSOLE_LOCK_TIMEOUT = '100ms';

/** int2, int4, oid, float4, float8 as numbers and bool as booleans; everything else as Postgres's own text. */
const NUMBER_TYPES = new Set([21, 23, 26, 700, 701]);
const BOOLEAN_TYPE = 16;
function consoleParser(oid: number): (text: string) => unknown {
  if (NUMBER_TYPES.has(oid)) return (text: string) => Number(text);
  if (oid === BOOLEAN_TYPE) return (text: string) => text === 't';
  return (text: string) => text;
}
const consoleTypes = { getTypeParser: consoleParser } as unknown as pg.CustomTypesConfig;
/** The measured cursor's two columns as the server wrote them. */
const rawText = { getTypeParser: () => (text: string) => text } as unknown as pg.CustomTypesConfig;
/** Queries as the console's lexer names them; any of them may be sent through the measured cursor. */
const PLAIN_QUERIES = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE']);

/**
 * The most the rows of one console answer may hold, as the server measures their text, before any of it
 * is sent: well within the bridge's 8 MB reply, and far from the 512 MB a JavaScript string can hold.
 */
const CONSOLE_RESULT_BYTES = 4 * 1024 * 1024;

/** The first rows of an answer hold more than CONSOLE_RESULT_BYTES: the server stopped sending them. */
class ConsoleResultTooLarge extends Error {
  override name = 'ConsoleResultTooLarge';
  constructor(
    readonly rowsWithin: number,
    readonly bytes: number,
  ) {
    super(`the answer is larger than the console's ${CONSOLE_RESULT_BYTES / 1024 / 1024} MB`);
  }

  /** As the console shows it: Postgres's SQLSTATE for a limit exceeded, saying the limit is the lab's. */
  answer(ms: number): Extract<ConsoleAnswer, { kind: 'error' }> {
    const within = this.rowsWithin === 1 ? '1 row fits' : `${this.rowsWithin} rows fit`;
    return {
      kind: 'error',
      code: '54000',
      message: `the result is too large for the console: its rows hold more than ${CONSOLE_RESULT_BYTES / 1024 / 1024} MB (${within}, the next brings it to ${this.bytes.toLocaleString('en')} bytes), so the bridge did not fetch them`,
      detail: "The bridge asks the server to measure each row before sending it; this cap is the lab's, not PostgreSQL's.",
      hint: 'Ask for fewer rows (LIMIT) or shorter values, e.g. left(result, 100) or length(result).',
      position: null,
      ms,
    };
  }
}

/**
 * The learner's text goes over the extended protocol (Parse/Bind/Execute): the server parses it as one
 * prepared statement and refuses text with several ("cannot insert multiple commands into a prepared
 * statement"), whatever the console's own check made of it. pg picks that protocol for queryMode 'extended'
 * (its types do not name the option).
 */
function extended(config: pg.QueryConfig & { rowMode?: 'array' }): pg.QueryArrayConfig {
  return { ...config, queryMode: 'extended' } as unknown as pg.QueryArrayConfig;
}

/**
 * Functions the console does not call on a real server, though its role may execute them, with why: not a
 * matter of privileges (PUBLIC may execute it), but a non-transactional message stays in the write-ahead
 * log after the ROLLBACK.
 */
const NOT_ON_A_LIVE_SERVER: Record<string, string> = {
  pg_logical_emit_message: 'it writes to the write-ahead log, which no ROLLBACK takes back',
};

/**
 * Why the console does not send the statement, or null: it names one of NOT_ON_A_LIVE_SERVER,
 * however spelled (quoted, qualified, any case). A Unicode-escaped name (U&"…") could spell one, so those
 * are refused too.
 */
function refusedOnALiveServer(sql: string): string | null {
  for (const token of lexSql(sql)) {
    if (token.kind !== 'identifier' && token.kind !== 'keyword') continue;
    if (/^u&"/i.test(token.text)) return 'the console does not run Unicode-escaped names (U&"…") on a live server: they could name a function it refuses';
    const name = token.text.startsWith('"') ? token.text.slice(1, -1).replaceAll('""', '"') : token.text.toLowerCase();
    const why = Object.hasOwn(NOT_ON_A_LIVE_SERVER, name) ? NOT_ON_A_LIVE_SERVER[name] : undefined;
    if (why) return `the console does not run ${name} on a live server: ${why}`;
  }
  return null;
}

/** The console's role could not be set up or logged into: `reason` says why, `remedy` what an administrator can do. */
class ConsoleLoginRefused extends Error {
  override name = 'ConsoleLoginRefused';
  constructor(
    readonly reason: string,
    readonly remedy: string,
  ) {
    super(reason);
  }
}

/** The console's role in this database (console-role-name.sql). */
async function consoleRoleName(client: pg.Client): Promise<string> {
  const name = (await client.query<{ name: string }>(bridgeSql('console-role-name'))).rows[0]?.name;
  if (!name) throw new Error('the server did not name the current database');
  return name;
}

/**
 * Creates (or checks) the console's role and gives it a new password, on a short connection of the
 * bridge's own; then logs in as that role. Throws ConsoleLoginRefused with what went wrong and what an
 * administrator can do about it.
 */
async function logInAsConsole(url: string): Promise<pg.Client> {
  const setup = await openClient(url, SETUP_NAME);
  let role: string;
  let secret: LoginSecret;
  try {
    role = await consoleRoleName(setup);
    secret = newLoginSecret();
    const you = setup.escapeIdentifier(setup.user ?? 'you');
    await setup.query(sqlText('transaction-begin'));
    try {
      await nameLoginRole(setup, role, secret);
      await setup.query(bridgeSql('console-role-create'));
      await setup.query(sqlText('transaction-commit'));
    } catch (error) {
      await setup.query(sqlText('transaction-rollback')).catch(() => undefined);
      const why = firstLine(error, url);
      const code = (error as { code?: unknown }).code;
      if (code === INSUFFICIENT_PRIVILEGE) {
        throw new ConsoleLoginRefused(
          `${you} may not create or change it (${why})`,
          `the bridge needs CREATEROLE; an administrator can run ALTER ROLE ${you} CREATEROLE and you restart npm run live`,
        );
      }
      if (code === NOT_THE_LABS_TO_USE) {
        throw new ConsoleLoginRefused(
          why,
          `the console will not log in as a role that may do more; an administrator can rename or drop that role (ALTER ROLE ${role} RENAME TO …, or DROP ROLE ${role}) and you restart npm run live`,
        );
      }
      throw new ConsoleLoginRefused(`it could not be set up (${why})`, 'see the server’s message');
    }
  } finally {
    await setup.end().catch(() => undefined);
  }
  let client: pg.Client;
  try {
    client = await openClient(loginUrl(url, role, secret.password), APPLICATION_NAME);
  } catch (error) {
    throw new ConsoleLoginRefused(
      `the server refused its login (${(error as Error).message})`,
      `pg_hba.conf must let it log in with a password (or trust), e.g. with the line "${hbaLineFor(url, role)}" above the others and SELECT pg_reload_conf(), and it needs CONNECT on the database (PUBLIC has it by default)`,
    );
  }
  await client.query(sqlText('live-session-setup'));
  return client;
}

/**
 * After the schema lease_lab is dropped: the console's role too, if the lab made it (console-role-drop.sql).
 * A role someone has since granted a privilege stays; the error says which.
 */
export async function dropConsoleRole(client: pg.Client, url: string): Promise<void> {
  const role = await consoleRoleName(client);
  await client.query(sqlText('transaction-begin'));
  try {
    await nameLoginRole(client, role, null);
    await client.query(bridgeSql('console-role-drop'));
    await client.query(sqlText('transaction-commit'));
  } catch (error) {
    await client.query(sqlText('transaction-rollback')).catch(() => undefined);
    const detail = String((error as { detail?: unknown }).detail ?? '')
      .split('\n')
      .filter(Boolean)
      .join('; ');
    throw userFacing(`the console's role ${role} in ${redactUrl(url)} was left: ${firstLine(error, url)}${detail ? ` (${detail})` : ''}`);
  }
}

export class PostgresConsole {
  /** The connection ended (a server restart): the next statement reopens it, with a new password. */
  private gone = false;

  private constructor(
    /** null while the console is off. */
    private client: pg.Client | null,
    /** Why the console is off (its role could not be set up or log in); null when it runs. */
    readonly refusal: string | null,
    private readonly url: string,
    /** The server's version as it names itself, e.g. "15.18". */
    readonly serverVersion: string,
  ) {
    if (client) this.watch(client);
  }

  private watch(client: pg.Client): void {
    client.on('end', () => {
      if (client === this.client) this.gone = true;
    });
  }

  private async connection(): Promise<pg.Client> {
    if (this.client && !this.gone) return this.client;
    const client = await logInAsConsole(this.url).catch((error: unknown) => {
      throw error instanceof ConsoleLoginRefused ? userFacing(`the console could not log in again: ${error.reason}`) : error;
    });
    this.client = client;
    this.gone = false;
    this.watch(client);
    return client;
  }

  /**
   * Sets up the console's role and logs in as it; call after the lab's schema exists. When that cannot be
   * done the console is off, with one message saying why and what would allow it: it never runs as the
   * connecting role, and there is no allow-list fallback (the functions a statement may reach, through
   * views, defaults, operators or SQL held in a string, cannot be told from its text).
   */
  static async open(url: string): Promise<PostgresConsole> {
    const setup = await openClient(url, SETUP_NAME);
    let version: string;
    let role: string;
    try {
      version = String((await setup.query<{ version: string }>(sqlText('server-version'))).rows[0]?.version ?? 'unknown').split(' ')[0]!;
      role = await consoleRoleName(setup);
    } finally {
      await setup.end().catch(() => undefined);
    }
    try {
      return new PostgresConsole(await logInAsConsole(url), null, url, version);
    } catch (error) {
      if (!(error instanceof ConsoleLoginRefused)) throw error;
      const refusal = `the console is off on this server: it logs in as a role of its own, ${role} (LOGIN with a new random password at every start, SELECT on lease_lab.runs and nothing else), and ${error.reason}; ${error.remedy}. The rest of live mode works.`;
      return new PostgresConsole(null, refusal, url, version);
    }
  }

  async run(statement: ConsoleStatement, clockIso: string, maxRows: number): Promise<ConsoleAnswer> {
    if (this.refusal) return { kind: 'error', code: '42501', message: this.refusal, detail: null, hint: null, position: null, ms: 0 };
    const refused = refusedOnALiveServer(statement.sql);
    if (refused)
      return {
        kind: 'error',
        code: '42501',
        message: refused,
        detail: null,
        hint: null,
        position: null,
        ms: 0,
      };
    const client = await this.connection();
    const limit = Math.max(1, Math.min(CONSOLE_ROWS_FETCHED, Math.floor(maxRows)));
    await client.query(sqlText('live-console-begin'));
    let started = performance.now();
    // Where the learner's text starts in what was sent, for the error's position.
    const sent = { prefixLength: 0 };
    try {
      const settings = () => client.query(sqlText('live-console-settings'), [CONSOLE_STATEMENT_TIMEOUT, CONSOLE_LOCK_TIMEOUT, clockIso]);
      await settings();
      started = performance.now();
      // Every query goes through the measured cursor, whatever the lexer made of it: only the server can say
      // which text is a query, and a query sent as it is could answer with rows of any size.
      if (statement.cursor || PLAIN_QUERIES.has(statement.command)) {
        const shapeDeclare = `${bridgeSql('console-shape-declare')}\n`;
        sent.prefixLength = shapeDeclare.length;
        const declared = await this.declareShape(client, `${shapeDeclare}${statement.sql}\n`, statement.cursor);
        if (declared) return await this.fetchMeasured(client, statement, limit, started, sent, settings);
      }
      sent.prefixLength = 0;
      const result = await client.query(extended({ text: statement.sql, rowMode: 'array', types: consoleTypes }));
      const rows = (result.rows ?? []).slice(0, limit).map((row) => row.map(consoleValue));
      return { kind: 'rows', columns: (result.fields ?? []).map((f) => f.name), rows, rowCount: result.rows?.length ?? 0, ms: performance.now() - started };
    } catch (error) {
      if (error instanceof ConsoleResultTooLarge) return error.answer(performance.now() - started);
      const answer = consoleError(error, { ...statement, cursor: sent.prefixLength > 0 }, sent.prefixLength, performance.now() - started);
      if (!answer) throw error;
      return answer;
    } finally {
      try {
        await client.query(sqlText('transaction-rollback'));
        await client.query(sqlText('live-console-unlock'));
      } catch {
        // The statement ended the console's own backend (its role may: pg_terminate_backend(pg_backend_pid())),
        // or the server went away: the next statement logs in afresh.
        this.gone = true;
        await client.end().catch(() => undefined);
      }
    }
  }

  /**
   * Declares the learner's query as a cursor only to learn its columns. A statement the lexer took for a
   * cursor reports Postgres's error as it is; any other (a query the lexer was unsure of) goes back to a
   * savepoint and returns false, to be sent as it is: Postgres declares every query, so what it refuses to
   * declare is not one (a write inside WITH, SELECT INTO), and a read-only transaction refuses those before
   * any row is sent.
   */
  private async declareShape(client: pg.Client, text: string, cursor: boolean): Promise<boolean> {
    if (cursor) {
      await client.query(extended({ text }));
      return true;
    }
    await client.query(bridgeSql('console-try'));
    try {
      await client.query(extended({ text }));
      return true;
    } catch (error) {
      if (typeof (error as { code?: unknown }).code !== 'string') throw error;
      await client.query(bridgeSql('console-try-undo'));
      return false;
    }
  }

  /** The first rows through console-sized-declare.sql: each row measured by the server before it leaves. */
  private async fetchMeasured(
    client: pg.Client,
    statement: ConsoleStatement,
    limit: number,
    started: number,
    sent: { prefixLength: number },
    settings: () => Promise<unknown>,
  ): Promise<ConsoleAnswer> {
    const shape = await client.query({ text: bridgeSql('console-shape-fetch'), rowMode: 'array' } as pg.QueryArrayConfig);
    const fields = shape.fields ?? [];
    const sized = sizedDeclare(statement.sql);
    sent.prefixLength = sized.prefixLength;
    await client.query(extended({ text: sized.text, values: [CONSOLE_RESULT_BYTES] }));
    const fetched = await client.query({ text: sqlText('live-console-fetch'), rowMode: 'array', types: rawText } as pg.QueryArrayConfig);
    const parsers = fields.map((field) => consoleParser(field.dataTypeID));
    const rows: ConsoleValue[][] = [];
    for (const [record, total] of fetched.rows as [string | null, string][]) {
      if (record === null) throw new ConsoleResultTooLarge(rows.length, Number(total));
      if (rows.length < limit) rows.push(parseRecordText(record, fields.length).map((text, i) => consoleValue(text === null ? null : parsers[i]!(text))));
    }
    let rest = 0;
    if (fetched.rows.length === CONSOLE_ROWS_FETCHED) {
      // The query itself may have lifted the timeouts (set_config, also inside SQL held in a string) while
      // its first rows were fetched: a statement's timer is armed as it starts, so set them again first.
      await settings();
      rest = (await client.query(sqlText('live-console-count-rest'))).rowCount ?? 0;
    }
    return { kind: 'rows', columns: fields.map((f) => f.name), rows, rowCount: fetched.rows.length + rest, ms: performance.now() - started };
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => undefined);
  }
}
