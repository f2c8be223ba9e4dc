/**
 * The SQL console on a real server: the learner's one statement (already checked by the console's rules)
 * on a connection of its own, inside BEGIN READ ONLY … ROLLBACK, with the lab's schema first on the
 * search_path and now() at the step's clock. Unlike PGlite, a real server can end a statement by itself:
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
import { openClient } from './postgres-connection';
import { type ConsoleStatement, lexSql } from '../sql/console';
import { sqlText } from '../sql/registry';

const APPLICATION_NAME = 'lease_lab_console';
/** Below the page's 2 s watchdog, so the learner gets Postgres's own "canceling statement due to statement timeout". */
const CONSOLE_STATEMENT_TIMEOUT = '1500ms';
const CONSOLE_LOCK_TIMEOUT = '100ms';
/** As live-console-fetch.sql fetches. */
const FETCHED_ROWS = 1000;

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
 * Functions the console does not call on a real server, though lease_lab_console may execute them, with why.
 * set_config: SET LOCAL ROLE is checked against the session's user, not the current role, so
 * set_config('role', 'postgres', true) inside the learner's statement switches back to the connecting role
 * (any role it belongs to; every role, for a superuser), and functions that check privileges while they run
 * (pg_terminate_backend, replication slots, dblink) then run with its powers. pg_logical_emit_message:
 * PUBLIC may execute it, and a non-transactional message stays in the write-ahead log after the ROLLBACK.
 */
const NOT_ON_A_LIVE_SERVER: Record<string, string> = {
  set_config: "set_config('role', …) would take the statement out of the role lease_lab_console and back to the role the bridge connected as",
  pg_logical_emit_message: 'it writes to the write-ahead log, which no ROLLBACK takes back',
};

/**
 * Why the statement may not run under lease_lab_console, or null: it names one of NOT_ON_A_LIVE_SERVER,
 * however spelled (quoted, qualified, any case). A Unicode-escaped name (U&"…") could spell one, so those
 * are refused too.
 */
function roleEscape(sql: string): string | null {
  for (const token of lexSql(sql)) {
    if (token.kind !== 'identifier' && token.kind !== 'keyword') continue;
    if (/^u&"/i.test(token.text)) return 'the console does not run Unicode-escaped names (U&"…") on a live server: they could name a function it refuses';
    const name = token.text.startsWith('"') ? token.text.slice(1, -1).replaceAll('""', '"') : token.text.toLowerCase();
    const why = Object.hasOwn(NOT_ON_A_LIVE_SERVER, name) ? NOT_ON_A_LIVE_SERVER[name] : undefined;
    if (why) return `the console does not run ${name} on a live server: ${why}`;
  }
  return null;
}

export class PostgresConsole {
  /** refusal: why the console is off (the connecting role could not set up lease_lab_console); null when it runs. */
  /** The connection ended (a server restart): the next statement reopens it. */
  private gone = false;

  private constructor(
    private client: pg.Client,
    readonly refusal: string | null,
    private readonly url: string,
  ) {
    this.watch(client);
  }

  private watch(client: pg.Client): void {
    client.on('end', () => {
      if (client === this.client) this.gone = true;
    });
  }

  private async reopenIfGone(): Promise<void> {
    if (!this.gone) return;
    const client = await openClient(this.url, APPLICATION_NAME);
    await client.query(sqlText('live-session-setup'));
    this.client = client;
    this.gone = false;
    this.watch(client);
  }

  /** Opens the console's connection and sets up its role; call after the lab's schema exists. */
  static async open(url: string): Promise<PostgresConsole> {
    const client = await openClient(url, APPLICATION_NAME);
    await client.query(sqlText('live-session-setup'));
    let refusal: string | null = null;
    const user = String((await client.query(bridgeSql('current-role'))).rows[0]?.name ?? 'you');
    try {
      await client.query(sqlText('live-console-role'));
      const problem = (await client.query<{ problem: string }>(bridgeSql('console-role-check'))).rows[0]?.problem;
      if (problem) throw new Error(`${problem}; the console will not run under it`);
    } catch (error) {
      // Without a role of no privileges the console would run as the connecting role: it stays off instead.
      // There is no allow-list fallback: the functions a statement may reach cannot be told from its text alone.
      refusal = `the console is off on this server: the role lease_lab_console could not be set up (${(error as Error).message.split('\n')[0]}). A role that may create roles can set it up once: CREATE ROLE lease_lab_console NOLOGIN; GRANT lease_lab_console TO ${client.escapeIdentifier(user)}`;
    }
    return new PostgresConsole(client, refusal, url);
  }

  /** The server's version as it names itself, e.g. "15.18". */
  async serverVersion(): Promise<string> {
    const result = await this.client.query<{ version: string }>(sqlText('server-version'));
    return (result.rows[0]?.version ?? 'unknown').split(' ')[0]!;
  }

  async run(statement: ConsoleStatement, clockIso: string, maxRows: number): Promise<ConsoleAnswer> {
    if (this.refusal) return { kind: 'error', code: '42501', message: this.refusal, detail: null, hint: null, position: null, ms: 0 };
    const refused = roleEscape(statement.sql);
    if (refused)
      return {
        kind: 'error',
        code: '42501',
        message: refused,
        detail: null,
        hint: 'Read a setting with current_setting(…) or SHOW; everything else the console runs as before.',
        position: null,
        ms: 0,
      };
    await this.reopenIfGone();
    const limit = Math.max(1, Math.min(FETCHED_ROWS, Math.floor(maxRows)));
    await this.client.query(sqlText('live-console-begin'));
    let started = performance.now();
    // Where the learner's text starts in what was sent, for the error's position.
    const sent = { prefixLength: 0 };
    try {
      await this.client.query(sqlText('live-console-settings'), [CONSOLE_STATEMENT_TIMEOUT, CONSOLE_LOCK_TIMEOUT, clockIso]);
      await this.client.query(sqlText('live-console-set-role'));
      started = performance.now();
      // Every query goes through the measured cursor, whatever the lexer made of it: only the server can say
      // which text is a query, and a query sent as it is could answer with rows of any size.
      if (statement.cursor || PLAIN_QUERIES.has(statement.command)) {
        const shapeDeclare = `${bridgeSql('console-shape-declare')}\n`;
        sent.prefixLength = shapeDeclare.length;
        const declared = await this.declareShape(`${shapeDeclare}${statement.sql}\n`, statement.cursor);
        if (declared) return await this.fetchMeasured(statement, limit, started, sent);
      }
      sent.prefixLength = 0;
      const result = await this.client.query(extended({ text: statement.sql, rowMode: 'array', types: consoleTypes }));
      const rows = (result.rows ?? []).slice(0, limit).map((row) => row.map(consoleValue));
      return { kind: 'rows', columns: (result.fields ?? []).map((f) => f.name), rows, rowCount: result.rows?.length ?? 0, ms: performance.now() - started };
    } catch (error) {
      if (error instanceof ConsoleResultTooLarge) return error.answer(performance.now() - started);
      const answer = consoleError(error, { ...statement, cursor: sent.prefixLength > 0 }, sent.prefixLength, performance.now() - started);
      if (!answer) throw error;
      return answer;
    } finally {
      await this.client.query(sqlText('transaction-rollback'));
      await this.client.query(sqlText('live-console-unlock'));
    }
  }

  /**
   * Declares the learner's query as a cursor only to learn its columns. A statement the lexer took for a
   * cursor reports Postgres's error as it is; any other (a query the lexer was unsure of) goes back to a
   * savepoint and returns false, to be sent as it is: Postgres declares every query, so what it refuses to
   * declare is not one (a write inside WITH, SELECT INTO), and a read-only transaction refuses those before
   * any row is sent.
   */
  private async declareShape(text: string, cursor: boolean): Promise<boolean> {
    if (cursor) {
      await this.client.query(extended({ text }));
      return true;
    }
    await this.client.query(bridgeSql('console-try'));
    try {
      await this.client.query(extended({ text }));
      return true;
    } catch (error) {
      if (typeof (error as { code?: unknown }).code !== 'string') throw error;
      await this.client.query(bridgeSql('console-try-undo'));
      return false;
    }
  }

  /** The first rows through console-sized-declare.sql: each row measured by the server before it leaves. */
  private async fetchMeasured(statement: ConsoleStatement, limit: number, started: number, sent: { prefixLength: number }): Promise<ConsoleAnswer> {
    const shape = await this.client.query({ text: bridgeSql('console-shape-fetch'), rowMode: 'array' } as pg.QueryArrayConfig);
    const fields = shape.fields ?? [];
    const sized = sizedDeclare(statement.sql);
    sent.prefixLength = sized.prefixLength;
    await this.client.query(extended({ text: sized.text, values: [CONSOLE_RESULT_BYTES] }));
    const fetched = await this.client.query({ text: sqlText('live-console-fetch'), rowMode: 'array', types: rawText } as pg.QueryArrayConfig);
    const parsers = fields.map((field) => consoleParser(field.dataTypeID));
    const rows: ConsoleValue[][] = [];
    for (const [record, total] of fetched.rows as [string | null, string][]) {
      if (record === null) throw new ConsoleResultTooLarge(rows.length, Number(total));
      if (rows.length < limit) rows.push(parseRecordText(record, fields.length).map((text, i) => consoleValue(text === null ? null : parsers[i]!(text))));
    }
    const rest = fetched.rows.length < FETCHED_ROWS ? 0 : ((await this.client.query(sqlText('live-console-count-rest'))).rowCount ?? 0);
    return { kind: 'rows', columns: fields.map((f) => f.name), rows, rowCount: fetched.rows.length + rest, ms: performance.now() - started };
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
