/**
 * The backpressure lab on PGlite. One session serves every worker, which is exact here: the engine runs
 * one worker's whole transaction at a time, so no statement can ever wait for another's lock (the
 * advisory locks in the claim are always free when taken). The race lab's parking is not needed.
 *
 * The session may be the race lab's own (one Postgres per tab). So the lab's rows live in
 * backpressure.runs, and every transaction begins with backpressure-scope.sql, which points search_path
 * and the clock at this lab for that transaction only: between two of ours the session is as the race
 * lab left it, and nothing the race lab does (parked transactions on public.runs, its clock) reaches us.
 *
 * Speed: PGlite's query() makes six calls into the wasm per statement (parse, describe, bind, describe,
 * execute, sync), about half a millisecond even for SELECT 1. Here each statement is parsed once, as a
 * named prepared statement, and a whole batch of transactions (a second of the lab: every worker's turn
 * and the measurement) goes to Postgres as one pipeline: Bind and Execute for each statement, and a Sync
 * after each transaction. One call into the wasm per simulated second; the text parsed is sqlText(id).
 *
 * A transaction here is the extended protocol's: the statements between two Syncs run in one implicit
 * transaction, which Sync commits, or rolls back if a statement failed (the server then skips the rest
 * of that transaction's messages, and the next transaction starts clean). On a real server the same
 * statements run between BEGIN and COMMIT (postgres-backpressure.ts); the ground-truth tests compare both.
 */
import type { messages, PGliteInterface } from '@electric-sql/pglite';
import type { Row, StatementOutcome, Value } from '../sim/types';
import { type SqlId, sqlText } from '../sql/registry';
import { loadPGlite } from './pglite-open';
import { exchangeRaw, MessageWriter, type Reply, readReplies } from './pglite-wire';
import type { BackpressureDatabase, BackpressureStatement, BackpressureTransaction, SessionId } from './port';
import { normalizeValue } from './values';

type ParseType = Awaited<ReturnType<typeof loadPGlite>>['types']['parseType'];
type DatabaseError = messages.DatabaseError;

/** A statement parsed once on the session: its name there and the columns it returns. */
interface Prepared {
  name: string;
  columns: { name: string; type: number }[];
}

/** The first statement of every transaction, prepared before any other. */
const SCOPE: SqlId = 'backpressure-scope';
const VACUUM: SqlId = 'backpressure-vacuum';
/**
 * Without autovacuum, every claim, call and answer leaves a dead row version (and index entries) behind,
 * and the scans and counts wade through them; and without statistics the planner guesses that most runs
 * have a call in flight, and counts them with a scan of the whole table. VACUUM (ANALYZE) after every
 * VACUUM_EVERY_TRANSACTIONS of the lab's transactions (claims, calls, answers) keeps the table at its live
 * size and the counts on their indexes, for a few milliseconds each time.
 */
const VACUUM_EVERY_TRANSACTIONS = 500;
/**
 * Statement names on the session. The race lab prepares its own on the same session (pglite-wire.ts, names
 * `lease_lab_<id>` with underscores only); these keep the id's hyphens, so the two never share a name. This
 * lab keeps its own cache because it parses under its scope's binding in the same message.
 */
const NAME_PREFIX = 'lease_lab_bp_';

export class PGliteBackpressure implements BackpressureDatabase {
  readonly kind = 'pglite' as const;
  private readonly prepared = new Map<SqlId, Prepared>();
  /** Transactions since the last VACUUM. */
  private writes = 0;
  private constructor(
    private readonly pg: PGliteInterface,
    private readonly parseType: ParseType,
  ) {}

  /** Wraps a started PGlite that has the lab's schema (bootLab gives one, and so does the race lab's worker). */
  static async open(pg: PGliteInterface): Promise<PGliteBackpressure> {
    const { types } = await loadPGlite();
    await pg.exec(sqlText('backpressure-schema'));
    return new PGliteBackpressure(pg, types.parseType);
  }

  async clear(): Promise<void> {
    // TRUNCATE, not DELETE: a finished run leaves thousands of dead row versions behind; new files drop them all.
    const [answer] = await this.transactions(EPOCH, [{ session: 'observer', statements: [{ sqlId: 'truncate-runs', params: [] }] }]);
    if (answer?.status === 'error') throw new Error(`emptying backpressure.runs failed: ${answer.code} ${answer.message}`);
  }

  async transaction(session: SessionId, clockIso: string, statements: BackpressureStatement[]): Promise<StatementOutcome> {
    const [answer] = await this.transactions(clockIso, [{ session, statements }]);
    return answer!;
  }

  async transactions(clockIso: string, batch: BackpressureTransaction[]): Promise<StatementOutcome[]> {
    return this.pg.runExclusive(async () => {
      await this.prepare(batch.flatMap((transaction) => transaction.statements.map((statement) => statement.sqlId)));
      const message = new MessageWriter();
      for (const { statements } of batch) {
        this.bind(message, SCOPE, [clockIso]);
        for (const statement of statements) this.bind(message, statement.sqlId, statement.params);
        message.sync();
      }
      this.writes += batch.length;
      const vacuuming = this.writes >= VACUUM_EVERY_TRANSACTIONS;
      // Alone between two Syncs: VACUUM refuses to run inside a transaction or a pipeline of several statements.
      if (vacuuming) {
        this.bind(message, VACUUM, []);
        message.sync();
      }
      const answers = this.answers(batch, readReplies(await exchangeRaw(this.pg, message.bytes())), vacuuming);
      if (vacuuming) this.writes = 0;
      return answers;
    });
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  /**
   * Each transaction's answer, from Postgres's replies (one per Sync): its last statement's rows, or the
   * error that rolled it back. With `vacuuming`, one more reply follows the batch: the VACUUM's, which
   * must not fail.
   */
  private answers(batch: BackpressureTransaction[], replies: Reply[], vacuuming: boolean): StatementOutcome[] {
    if (replies.length < batch.length + (vacuuming ? 1 : 0)) throw new Error(`PGlite answered ${replies.length} of ${batch.length} backpressure transactions`);
    // 'I': idle, the implicit transaction ended. Anything else means a transaction someone else opened on
    // this session (the race lab never leaves one open between requests) swallowed ours.
    if (replies.some((reply) => reply.status !== 'I')) throw new Error('the backpressure lab ran inside a transaction left open on its session');
    const vacuum = vacuuming ? replies[batch.length]! : null;
    if (vacuum?.error) throw new Error(`VACUUM (ANALYZE) backpressure.runs failed: ${vacuum.error.code} ${vacuum.error.message}`);
    return batch.map(({ statements }, i): StatementOutcome => {
      const { error, completed } = replies[i]!;
      if (error) return { status: 'error', code: error.code, message: error.message };
      // The scope's answer comes first, then one per statement: the last statement's rows are the answer.
      const last = statements.at(-1)!;
      const rows = (completed[statements.length]?.rows ?? []).map((cells) => this.row(last.sqlId, cells));
      return { status: 'ok', rows, rowCount: rows.length };
    });
  }

  /** Parses, once per session, the statements not parsed yet (under the lab's scope, so `runs` is ours). */
  private async prepare(ids: SqlId[]): Promise<void> {
    if (!this.prepared.has(SCOPE)) await this.parse([SCOPE, VACUUM], false);
    const missing = [...new Set(ids)].filter((id) => !this.prepared.has(id));
    if (missing.length > 0) await this.parse(missing, true);
  }

  private async parse(ids: SqlId[], scoped: boolean): Promise<void> {
    const message = new MessageWriter();
    if (scoped) this.bind(message, SCOPE, [EPOCH]);
    for (const id of ids) {
      const name = NAME_PREFIX + id;
      // Close first: another adapter on this session (the same statements) may have parsed it already.
      message.closeStatement(name);
      message.parse(name, sqlText(id));
      message.describeStatement(name);
    }
    message.sync();
    const reply = (await this.pg.execProtocol(message.bytes(), { throwOnError: false })).messages;
    const error = reply.find((message): message is DatabaseError => message.name === 'error');
    if (error) throw new Error(`PGlite could not prepare ${ids.join(', ')}: ${error.code} ${error.message}`);
    // Each Describe answers with the parameters, then the row's columns (or noData), in order.
    const descriptions = reply.filter((message) => message.name === 'rowDescription' || message.name === 'noData');
    ids.forEach((id, i) => {
      const description = descriptions[i];
      const columns =
        description?.name === 'rowDescription'
          ? (description as messages.RowDescriptionMessage).fields.map((field) => ({ name: field.name, type: field.dataTypeID }))
          : [];
      this.prepared.set(id, { name: NAME_PREFIX + id, columns });
    });
  }

  /** Bind and Execute of a prepared statement, appended to `message`. */
  private bind(message: MessageWriter, id: SqlId, params: Value[]): void {
    const prepared = this.prepared.get(id);
    if (!prepared) throw new Error(`${id} was not prepared`);
    message.bind(prepared.name, params.map(toParameter));
    message.execute();
  }

  /** A DataRow's values as query() would give them, then as the lab keeps them (timestamps as ISO text). */
  private row(id: SqlId, cells: (string | null)[]): Row {
    const { columns } = this.prepared.get(id)!;
    const row: Row = {};
    columns.forEach((column, i) => {
      row[column.name] = normalizeValue(this.parseType(cells[i] ?? null, column.type));
    });
    return row;
  }
}

/** The clock for transactions that read none (emptying the table, preparing statements). */
const EPOCH = '1970-01-01T00:00:00.000Z';

/** Parameters travel as Postgres's text input, which is what query() sends for these types too. */
function toParameter(value: Value): string | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
}
