/**
 * The backpressure lab on a real PostgreSQL server: one connection per worker (and one each for the
 * clients that create runs and for the measurements), as a fleet of real workers would have. Sessions
 * may call at once; then the claim's advisory lock really makes them queue, on the server.
 */
import type pg from 'pg';
import type { StatementOutcome } from '../sim/types';
import { sqlText } from '../sql/registry';
import type { BackpressureDatabase, BackpressureStatement, BackpressureTransaction, SessionId } from './port';
import { openClient } from './postgres-connection';
import { normalizeRow, toOutcomeError } from './values';

const APP_PREFIX = 'lease_lab_bp_';

interface Connection {
  client: pg.Client;
  clock: string | null;
}

export class PostgresBackpressure implements BackpressureDatabase {
  readonly kind = 'postgres' as const;
  private readonly connections = new Map<SessionId, Promise<Connection>>();

  private constructor(private readonly url: string) {}

  /** Creates the lab's schema in this database if it is not there yet. */
  static async connect(url: string): Promise<PostgresBackpressure> {
    const setup = await openClient(url, `${APP_PREFIX}setup`);
    try {
      const present = await setup.query<{ present: boolean }>(sqlText('runs-table-present'));
      if (!present.rows[0]?.present) await setup.query(sqlText('schema'));
    } finally {
      await setup.end();
    }
    return new PostgresBackpressure(url);
  }

  async clear(): Promise<void> {
    const connection = await this.connection('observer');
    await connection.client.query(sqlText('truncate-runs'));
  }

  async transaction(session: SessionId, clockIso: string, statements: BackpressureStatement[]): Promise<StatementOutcome> {
    const connection = await this.connection(session);
    const { client } = connection;
    if (connection.clock !== clockIso) {
      await client.query(sqlText('set-clock'), [clockIso]);
      connection.clock = clockIso;
    }
    const single = statements.length === 1;
    if (!single) await client.query('BEGIN');
    try {
      let last: StatementOutcome = { status: 'ok', rows: [], rowCount: 0 };
      for (const statement of statements) {
        const result = await client.query(sqlText(statement.sqlId), statement.params);
        last = { status: 'ok', rows: result.rows.map(normalizeRow), rowCount: result.rows.length };
      }
      if (!single) await client.query('COMMIT');
      return last;
    } catch (error) {
      if (!single) await client.query('ROLLBACK').catch(() => undefined);
      return toOutcomeError(error);
    }
  }

  /** One after another, each on its own session's connection, as the engine would send them one by one. */
  async transactions(clockIso: string, batch: BackpressureTransaction[]): Promise<StatementOutcome[]> {
    const answers: StatementOutcome[] = [];
    for (const { session, statements } of batch) answers.push(await this.transaction(session, clockIso, statements));
    return answers;
  }

  async close(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map(async (pending) => (await pending.catch(() => null))?.client.end().catch(() => undefined)));
  }

  /** The session's connection, opened on first use with the lab's search_path (sim.now() in front). */
  private connection(session: SessionId): Promise<Connection> {
    const existing = this.connections.get(session);
    if (existing) return existing;
    if (!/^[A-Za-z0-9_]+$/.test(session)) throw new Error(`unexpected session name ${session}`);
    const opened = (async () => {
      const client = await openClient(this.url, APP_PREFIX + session);
      await client.query(sqlText('session-setup'));
      return { client, clock: null };
    })();
    this.connections.set(session, opened);
    return opened;
  }
}
