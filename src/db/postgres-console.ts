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
import type { ConsoleAnswer } from './port';
import { openClient } from './postgres-connection';
import type { ConsoleStatement } from '../sql/console';
import { sqlText } from '../sql/registry';

const APPLICATION_NAME = 'lease_lab_console';
/** Below the page's 2 s watchdog, so the learner gets Postgres's own "canceling statement due to statement timeout". */
export const CONSOLE_STATEMENT_TIMEOUT = '1500ms';
const CONSOLE_LOCK_TIMEOUT = '100ms';
/** As live-console-fetch.sql fetches. */
const FETCHED_ROWS = 1000;

/** int2, int4, oid, float4, float8 as numbers and bool as booleans; everything else as Postgres's own text. */
const NUMBER_TYPES = new Set([21, 23, 26, 700, 701]);
const BOOLEAN_TYPE = 16;
const consoleTypes = {
  getTypeParser: (oid: number) => {
    if (NUMBER_TYPES.has(oid)) return (text: string) => Number(text);
    if (oid === BOOLEAN_TYPE) return (text: string) => text === 't';
    return (text: string) => text;
  },
} as unknown as pg.CustomTypesConfig;

/**
 * The learner's text goes over the extended protocol (Parse/Bind/Execute): the server parses it as one
 * prepared statement and refuses text with several ("cannot insert multiple commands into a prepared
 * statement"), whatever the console's own check made of it. pg picks that protocol for queryMode 'extended'
 * (its types do not name the option).
 */
function extended(config: pg.QueryConfig & { rowMode?: 'array' }): pg.QueryArrayConfig {
  return { ...config, queryMode: 'extended' } as unknown as pg.QueryArrayConfig;
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
    try {
      await client.query(sqlText('live-console-role'));
    } catch (error) {
      // Without a role of no privileges the console would run as the connecting role: it stays off instead.
      refusal = `the console is off on this server: the role lease_lab_console could not be set up (${(error as Error).message.split('\n')[0]})`;
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
    await this.reopenIfGone();
    const limit = Math.max(1, Math.min(FETCHED_ROWS, Math.floor(maxRows)));
    const declare = `${sqlText('live-console-declare')}\n`;
    await this.client.query(sqlText('live-console-begin'));
    let started = performance.now();
    try {
      await this.client.query(sqlText('live-console-settings'), [CONSOLE_STATEMENT_TIMEOUT, CONSOLE_LOCK_TIMEOUT, clockIso]);
      await this.client.query(sqlText('live-console-set-role'));
      started = performance.now();
      let result: pg.QueryResult<unknown[]>;
      let rowCount: number;
      if (statement.cursor) {
        await this.client.query(extended({ text: `${declare}${statement.sql}\n` }));
        result = await this.client.query({ text: sqlText('live-console-fetch'), rowMode: 'array', types: consoleTypes });
        const rest = result.rows.length < FETCHED_ROWS ? 0 : ((await this.client.query(sqlText('live-console-count-rest'))).rowCount ?? 0);
        rowCount = result.rows.length + rest;
      } else {
        result = await this.client.query(extended({ text: statement.sql, rowMode: 'array', types: consoleTypes }));
        rowCount = result.rows?.length ?? 0;
      }
      const rows = (result.rows ?? []).slice(0, limit).map((row) => row.map(consoleValue));
      return { kind: 'rows', columns: (result.fields ?? []).map((f) => f.name), rows, rowCount, ms: performance.now() - started };
    } catch (error) {
      const answer = consoleError(error, statement, declare.length, performance.now() - started);
      if (!answer) throw error;
      return answer;
    } finally {
      await this.client.query(sqlText('transaction-rollback'));
      await this.client.query(sqlText('live-console-unlock'));
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

