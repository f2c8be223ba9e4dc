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
import { concat } from './pglite-wire';
import type { BackpressureDatabase, BackpressureStatement, BackpressureTransaction, SessionId } from './port';
import { normalizeValue } from './values';

type PGliteModule = Awaited<ReturnType<typeof loadPGlite>>;
type Wire = PGliteModule['protocol']['serialize'];
type ParseType = PGliteModule['types']['parseType'];
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
 * have a call in flight, and counts them with a scan of the whole table. VACUUM (ANALYZE) about every
 * 60 simulated seconds keeps the table at its live size and the counts on their indexes, for a few
 * milliseconds each time.
 */
const VACUUM_EVERY_TRANSACTIONS = 500;
/** Statement names on the session; the race lab uses unnamed statements only. */
const NAME_PREFIX = 'lease_lab_bp_';

export class PGliteBackpressure implements BackpressureDatabase {
  readonly kind = 'pglite' as const;
  private readonly prepared = new Map<SqlId, Prepared>();
  /** Transactions since the last VACUUM. */
  private writes = 0;
  private readonly execute: Uint8Array;
  private readonly sync: Uint8Array;

  private constructor(
    private readonly pg: PGliteInterface,
    private readonly wire: Wire,
    private readonly parseType: ParseType,
  ) {
    this.execute = wire.execute();
    this.sync = wire.sync();
  }

  /** Wraps a started PGlite that has the lab's schema (bootLab gives one, and so does the race lab's worker). */
  static async open(pg: PGliteInterface): Promise<PGliteBackpressure> {
    const { protocol, types } = await loadPGlite();
    await pg.exec(sqlText('backpressure-schema'));
    return new PGliteBackpressure(pg, protocol.serialize, types.parseType);
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
      const parts: Uint8Array[] = [];
      for (const { statements } of batch) {
        parts.push(this.bind(SCOPE, [clockIso]), this.execute);
        for (const statement of statements) parts.push(this.bind(statement.sqlId, statement.params), this.execute);
        parts.push(this.sync);
      }
      this.writes += batch.length;
      const vacuuming = this.writes >= VACUUM_EVERY_TRANSACTIONS;
      // Alone between two Syncs: VACUUM refuses to run inside a transaction or a pipeline of several statements.
      if (vacuuming) parts.push(this.bind(VACUUM, []), this.execute, this.sync);
      const answers = this.answers(batch, await this.exchange(concat(parts)), vacuuming);
      if (vacuuming) this.writes = 0;
      return answers;
    });
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  /**
   * Sends the messages and returns Postgres's answer as bytes. Read here rather than by PGlite's protocol
   * parser: a second of the lab answers with dozens of messages, and only a few rows are needed from them.
   */
  private async exchange(message: Uint8Array): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    // The bytes are a view into the wasm memory, valid only during the call: copy them.
    await this.pg.execProtocolRawStream(message, { onRawData: (bytes) => chunks.push(bytes.slice()) });
    return chunks.length === 1 ? chunks[0]! : concat(chunks);
  }

  /**
   * Each transaction's answer, from Postgres's reply: its last statement's rows, or the error that rolled
   * it back. With `vacuuming`, one more group follows the batch: the VACUUM's, which must not fail.
   */
  private answers(batch: BackpressureTransaction[], data: Uint8Array, vacuuming: boolean): StatementOutcome[] {
    const answers: StatementOutcome[] = [];
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    // Statements completed so far in the current transaction: the scope, then the lab's.
    let completed = 0;
    let rows: Row[] = [];
    let failure: StatementOutcome | null = null;
    for (let offset = 0; offset < data.length; ) {
      const type = data[offset]!;
      const end = offset + 1 + view.getInt32(offset + 1);
      const transaction = batch[answers.length];
      switch (type) {
        case DATA_ROW:
          // Only the last statement's rows are read (the scope's and the lock's are not).
          if (transaction && completed === transaction.statements.length) rows.push(this.row(transaction.statements.at(-1)!.sqlId, view, offset + 5));
          break;
        case COMMAND_COMPLETE:
        case EMPTY_QUERY:
          completed += 1;
          break;
        case ERROR_RESPONSE:
          failure ??= errorOutcome(data, offset + 5, end);
          break;
        case READY_FOR_QUERY:
          // 'I': idle, the implicit transaction ended. Anything else means a transaction someone else
          // opened on this session (the race lab never leaves one open between requests) swallowed ours.
          if (data[offset + 5] !== IDLE) throw new Error('the backpressure lab ran inside a transaction left open on its session');
          if (transaction) answers.push(failure ?? { status: 'ok', rows, rowCount: rows.length });
          else if (vacuuming && failure?.status === 'error') throw new Error(`VACUUM (ANALYZE) backpressure.runs failed: ${failure.code} ${failure.message}`);
          completed = 0;
          rows = [];
          failure = null;
          break;
      }
      offset = end;
    }
    if (answers.length < batch.length) throw new Error(`PGlite answered ${answers.length} of ${batch.length} backpressure transactions`);
    return answers;
  }

  /** Parses, once per session, the statements not parsed yet (under the lab's scope, so `runs` is ours). */
  private async prepare(ids: SqlId[]): Promise<void> {
    if (!this.prepared.has(SCOPE)) await this.parse([SCOPE, VACUUM], false);
    const missing = [...new Set(ids)].filter((id) => !this.prepared.has(id));
    if (missing.length > 0) await this.parse(missing, true);
  }

  private async parse(ids: SqlId[], scoped: boolean): Promise<void> {
    const parts: Uint8Array[] = [];
    if (scoped) parts.push(this.bind(SCOPE, [EPOCH]), this.execute);
    for (const id of ids) {
      const name = NAME_PREFIX + id;
      // Close first: another adapter on this session (the same statements) may have parsed it already.
      parts.push(this.wire.close({ type: 'S', name }), this.wire.parse({ name, text: sqlText(id) }), this.wire.describe({ type: 'S', name }));
    }
    parts.push(this.sync);
    const reply = (await this.pg.execProtocol(concat(parts), { throwOnError: false })).messages;
    const error = reply.find((message): message is DatabaseError => message.name === 'error');
    if (error) throw new Error(`PGlite could not prepare ${ids.join(', ')}: ${error.code} ${error.message}`);
    // Each Describe answers with the parameters, then the row's columns (or noData), in order.
    const descriptions = reply.filter((message) => message.name === 'rowDescription' || message.name === 'noData');
    ids.forEach((id, i) => {
      const description = descriptions[i];
      const columns = description?.name === 'rowDescription' ? (description as messages.RowDescriptionMessage).fields.map((field) => ({ name: field.name, type: field.dataTypeID })) : [];
      this.prepared.set(id, { name: NAME_PREFIX + id, columns });
    });
  }

  private bind(id: SqlId, params: Value[]): Uint8Array {
    const prepared = this.prepared.get(id);
    if (!prepared) throw new Error(`${id} was not prepared`);
    return this.wire.bind({ statement: prepared.name, values: params.map(toParameter) });
  }

  /** A DataRow message's values as query() would give them, then as the lab keeps them (timestamps as ISO text). */
  private row(id: SqlId, view: DataView, start: number): Row {
    const { columns } = this.prepared.get(id)!;
    const row: Row = {};
    let offset = start + 2;
    for (const column of columns) {
      const length = view.getInt32(offset);
      offset += 4;
      const text = length < 0 ? null : UTF8.decode(new Uint8Array(view.buffer, view.byteOffset + offset, length));
      if (length > 0) offset += length;
      row[column.name] = normalizeValue(this.parseType(text, column.type));
    }
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

/** The backend messages read here, by their type byte. */
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const EMPTY_QUERY = 0x49; // 'I'
const ERROR_RESPONSE = 0x45; // 'E'
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I', ReadyForQuery's status outside a transaction block
const UTF8 = new TextDecoder();

/** An ErrorResponse's SQLSTATE and message: fields of one type byte and a NUL-terminated text each. */
function errorOutcome(data: Uint8Array, start: number, end: number): StatementOutcome {
  const fields = new Map<string, string>();
  for (let offset = start; offset < end && data[offset] !== 0; ) {
    const type = String.fromCharCode(data[offset]!);
    const stop = data.indexOf(0, offset + 1);
    fields.set(type, UTF8.decode(data.subarray(offset + 1, stop)));
    offset = stop + 1;
  }
  return { status: 'error', code: fields.get('C') ?? 'XX000', message: fields.get('M') ?? 'unknown error' };
}
