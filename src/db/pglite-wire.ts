/**
 * The lab's statements on PGlite, spoken in Postgres's own wire protocol.
 *
 * PGlite's `query()` parses, plans and runs a statement afresh on every call, in six calls into the wasm,
 * and parses every reply into objects. On the lab's ten-row tables that was most of a step's cost:
 * BEGIN, the SKIP LOCKED claim and ROLLBACK took ~1.2 ms through query()/exec(), ~0.2 ms as below
 * (measured in Node). So each `.sql` file is sent once as a named prepared statement (the extended
 * protocol's Parse; what SQL's PREPARE does), and each later run sends only Bind, Execute and Sync.
 * Postgres then skips parsing, and once it has run the statement a few times it reuses a generic plan,
 * as it does for any prepared statement. Several statements travel in one message: one call into
 * Postgres per batch, and the reply is read straight from its bytes.
 *
 * The text Postgres parses is the `.sql` file's text, byte for byte; values travel as $n parameters,
 * serialized and parsed by PGlite's own type handlers, so rows come back exactly as `query()` gives them.
 */
import type { PGlite, PGliteInterface } from '@electric-sql/pglite';
import type { Value } from '../sim/types';
import { type SqlId, sqlText } from '../sql/registry';
import type { StatementText } from '../strategies';

/**
 * One statement of a batch: one of src/sql/ by id, or a statement value (a strategy's, perhaps typed by
 * the learner), with its parameters; or a command without parameters.
 */
export type WirePiece = { sqlId: SqlId; params?: readonly Value[] } | { statement: StatementText; params?: readonly Value[] } | { command: string };

export interface WireResult {
  /** Rows as objects keyed by column name, values parsed as PGlite's `query()` parses them. */
  rows: Record<string, unknown>[];
  /** Rows written, for INSERT, UPDATE, DELETE and MERGE; 0 otherwise. */
  affectedRows: number;
  /** Whether the statement is one that writes rows (INSERT, UPDATE, DELETE, MERGE), whatever it matched. */
  writes: boolean;
  /** Postgres's error for this statement, or null. */
  error: WireError | null;
}

/** SQLSTATE 08P01: what PostgreSQL raises for a Bind whose parameters do not match its statement. */
const PROTOCOL_VIOLATION = '08P01';

/** An ErrorResponse from Postgres, with its SQLSTATE in `code` (like PGlite's own DatabaseError). */
class WireError extends Error {
  override name = 'WireError';
  constructor(
    message: string,
    readonly code: string,
    readonly detail: string | null,
    /** ERROR, FATAL or PANIC, as the server words it (what the isolation tester prints before the message). */
    readonly severity = 'ERROR',
  ) {
    super(message);
  }
}

/** What Postgres said about a prepared statement when it was parsed: its parameter types and columns. */
interface Described {
  name: string;
  /** The text it was prepared from: a statement of the same id with another text is prepared again. */
  text: string;
  paramTypes: number[];
  columns: { name: string; type: number }[];
}

/** The handlers PGlite keeps per type oid (public fields of the PGlite class, not of its interface). */
type TypeHandlers = Pick<PGlite, 'serializers' | 'parsers'>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Prepared statements live in the session, so every PGliteWire on one PGlite shares what it prepared. */
const preparedBySession = new WeakMap<PGliteInterface, Map<string, Described>>();

export class PGliteWire {
  private readonly described: Map<string, Described>;
  private readonly handlers: TypeHandlers;
  /** An owner's calls never overlap, so one writer serves them all (emptied before each). */
  private readonly writer: MessageWriter | null;

  /**
   * `owned`: the caller sends nothing to this PGlite but through here, one call at a time (the spec driver's
   * queue), so PGlite's query lock, a promise chain per call, is not taken.
   */
  constructor(
    private readonly pg: PGliteInterface,
    private readonly owned = false,
  ) {
    this.handlers = pg as unknown as TypeHandlers;
    this.writer = owned ? new MessageWriter() : null;
    let described = preparedBySession.get(pg);
    if (!described) {
      described = new Map();
      preparedBySession.set(pg, described);
    }
    this.described = described;
  }

  /** One statement; throws its error (a WireError with the SQLSTATE) like `query()` does. */
  async one(sqlId: SqlId, params: readonly Value[] = []): Promise<WireResult> {
    const [result] = await this.run([{ sqlId, params }]);
    if (result!.error) throw result!.error;
    return result!;
  }

  /**
   * The statements in order, in one call into Postgres. Each runs on its own, as if sent alone: an error
   * ends only its own statement (and, inside BEGIN, aborts that transaction as usual), never the batch.
   * A statement not yet prepared is prepared before the batch runs, so under the search_path in force
   * before it. A command is one statement (its rows are read with the columns it describes).
   */
  async run(pieces: readonly WirePiece[]): Promise<WireResult[]> {
    const unprepared = new Map<string, string>();
    for (const piece of pieces) {
      if ('command' in piece) continue;
      // A file's text never changes; a statement value's may (the learner edits it) under the same id.
      if ('sqlId' in piece) {
        if (!this.described.has(piece.sqlId)) unprepared.set(piece.sqlId, sqlText(piece.sqlId));
      } else if (this.described.get(piece.statement.id)?.text !== piece.statement.text) {
        unprepared.set(piece.statement.id, piece.statement.text);
      }
    }
    if (unprepared.size > 0) await this.prepare(unprepared);
    const message = this.writer?.empty() ?? new MessageWriter();
    const columns: (Described['columns'] | null)[] = [];
    for (const piece of pieces) {
      if ('command' in piece) {
        message.query(piece.command);
        columns.push(null);
        continue;
      }
      const id = 'sqlId' in piece ? piece.sqlId : piece.statement.id;
      const described = this.described.get(id)!;
      const params = piece.params ?? [];
      if (params.length !== described.paramTypes.length) {
        // Raised before anything is sent, as PostgreSQL's own answer to such a Bind (exec_bind_message): its
        // SQLSTATE tells a statement's error from a failure of the lab's (db/values.ts sqlStateOf).
        const message = `bind message supplies ${params.length} parameters, but prepared statement "${described.name}" requires ${described.paramTypes.length}`;
        throw new WireError(message, PROTOCOL_VIOLATION, null);
      }
      message.bind(
        described.name,
        params.map((value, i) => this.serialize(value, described.paramTypes[i]!)),
      );
      message.execute();
      message.sync();
      columns.push(described.columns);
    }
    const replies = await this.send(message.bytes());
    if (replies.length !== pieces.length) throw new Error(`expected ${pieces.length} answers from Postgres, got ${replies.length}`);
    return replies.map((reply, i) => this.result(reply, columns[i] ?? reply.columns ?? []));
  }

  /** Parse and Describe each statement once; a statement that does not parse is an error of the caller's. */
  private async prepare(texts: ReadonlyMap<string, string>): Promise<void> {
    const message = new MessageWriter();
    for (const [id, text] of texts) {
      // Closing first makes this safe even if the session already has a statement of that name.
      message.closeStatement(statementName(id));
      message.parse(statementName(id), text);
      message.describeStatement(statementName(id));
      message.sync();
    }
    const replies = await this.send(message.bytes());
    // Every statement of the batch is settled before the first error is thrown: each was closed before its
    // Parse, so one that failed no longer exists in the session (an older text kept here would be bound to
    // nothing: "prepared statement … does not exist"), and one after it was prepared with its new text.
    let failure: Error | null = null;
    [...texts].forEach(([id, text], i) => {
      const reply = replies[i];
      if (!reply || reply.error) {
        this.described.delete(id);
        failure ??= reply?.error ?? new Error(`no answer from Postgres while preparing ${id}`);
        return;
      }
      this.described.set(id, { name: statementName(id), text, paramTypes: reply.paramTypes, columns: reply.columns ?? [] });
    });
    if (failure) throw failure;
  }

  private async send(message: Uint8Array): Promise<Reply[]> {
    // The query lock keeps this call from landing between the steps of a query() in flight elsewhere.
    if (this.owned) return readReplies(await exchangeRaw(this.pg, message, { syncToFs: false }));
    return readReplies(await this.pg.runExclusive(() => exchangeRaw(this.pg, message, { syncToFs: false })));
  }

  private serialize(value: Value, type: number): string | null {
    if (value === null) return null;
    const serializer = this.handlers.serializers[type];
    return serializer ? serializer(value) : String(value);
  }

  private result(reply: Reply, columns: Described['columns']): WireResult {
    const done = reply.completed.at(-1);
    const rows = (done?.rows ?? reply.rows).map((cells) => {
      const row: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        const cell = cells[i] ?? null;
        const parser = this.handlers.parsers[column.type];
        row[column.name] = cell === null ? null : parser ? parser(cell, column.type) : cell;
      });
      return row;
    });
    const [command, ...rest] = done?.tag.split(' ') ?? [];
    const writes = command !== undefined && WRITING_COMMANDS.has(command);
    return { rows, affectedRows: writes ? Number(rest.at(-1)) || 0 : 0, writes, error: reply.error };
  }
}

/**
 * Sends protocol messages and returns Postgres's answer as its bytes. The raw stream hands them over as
 * they are written; execProtocolRaw() would also parse every message into objects (and keep them until
 * the next query()), which cost more than the rest. The caller holds the query lock.
 */
export async function exchangeRaw(pg: PGliteInterface, message: Uint8Array, options: { syncToFs?: boolean } = {}): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const onRawData = (bytes: Uint8Array) => {
    // A view into the wasm memory, reused by the next write: copy it.
    chunks.push(bytes.slice());
  };
  await pg.execProtocolRawStream(message, { ...options, onRawData });
  return chunks.length === 1 ? chunks[0]! : concat(chunks);
}

/** Protocol messages (or reply chunks) as one buffer. */
function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function statementName(id: string): string {
  return `lease_lab_${id.replaceAll('-', '_')}`;
}

/** Command tags that end in the number of rows written ("UPDATE 1", "INSERT 0 5"). */
const WRITING_COMMANDS: ReadonlySet<string> = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** Frontend messages, appended to one growing buffer. */
export class MessageWriter {
  private buffer = new Uint8Array(512);
  private view = new DataView(this.buffer.buffer);
  private length = 0;

  /** Simple Query: one command, no parameters. */
  query(text: string): void {
    this.message(0x51, () => this.cstring(text));
  }

  parse(name: string, text: string): void {
    this.message(0x50, () => {
      this.cstring(name);
      this.cstring(text);
      this.int16(0); // parameter types: let Postgres infer them
    });
  }

  closeStatement(name: string): void {
    this.message(0x43, () => {
      this.byte(0x53);
      this.cstring(name);
    });
  }

  describeStatement(name: string): void {
    this.message(0x44, () => {
      this.byte(0x53);
      this.cstring(name);
    });
  }

  /** Bind the unnamed portal to a prepared statement; every value and column in text format. */
  bind(statement: string, values: readonly (string | null)[]): void {
    this.message(0x42, () => {
      this.cstring('');
      this.cstring(statement);
      this.int16(0);
      this.int16(values.length);
      for (const value of values) {
        if (value === null) {
          this.int32(-1);
          continue;
        }
        // The length goes before the value: written once the value's bytes are known (and after any
        // growth of the buffer, which replaces this.view).
        const lengthAt = this.length;
        this.int32(0);
        const size = this.text(value);
        this.view.setInt32(lengthAt, size);
      }
      this.int16(0);
    });
  }

  /** Execute the unnamed portal, every row. */
  execute(): void {
    this.message(0x45, () => {
      this.cstring('');
      this.int32(0);
    });
  }

  sync(): void {
    this.message(0x53, () => undefined);
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }

  /** Starts a new message in the same buffer (what bytes() gave before is written over). */
  empty(): this {
    this.length = 0;
    return this;
  }

  private message(type: number, body: () => void): void {
    this.byte(type);
    const lengthAt = this.length;
    this.int32(0);
    body();
    this.view.setInt32(lengthAt, this.length - lengthAt);
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  private byte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  private int16(value: number): void {
    this.room(2);
    this.view.setInt16(this.length, value);
    this.length += 2;
  }

  private int32(value: number): void {
    this.room(4);
    this.view.setInt32(this.length, value);
    this.length += 4;
  }

  private bytesIn(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  private cstring(text: string): void {
    this.text(text);
    this.byte(0);
  }

  /** UTF-8; ASCII (nearly everything the lab sends) is copied as it is, without an encoder call. */
  private text(text: string): number {
    this.room(text.length);
    let i = 0;
    while (i < text.length && text.charCodeAt(i) < 0x80) this.buffer[this.length + i] = text.charCodeAt(i++);
    if (i === text.length) {
      this.length += i;
      return i;
    }
    const bytes = encoder.encode(text);
    this.bytesIn(bytes);
    return bytes.length;
  }
}

/** What Postgres answered to one Simple Query, or to everything up to one Sync. */
export interface Reply {
  paramTypes: number[];
  /** From a RowDescription in the answer, if it carried one. */
  columns: { name: string; type: number }[] | null;
  /** Each statement that completed (CommandComplete or EmptyQueryResponse), in order, with its rows. */
  completed: { rows: (string | null)[][]; tag: string; columns: { name: string; type: number }[] | null }[];
  /** Rows of a statement that has not completed (one that failed part way). */
  rows: (string | null)[][];
  error: WireError | null;
  /** ReadyForQuery's transaction status: 'I' idle, 'T' in a transaction block, 'E' in a failed one. */
  status: string;
  /** NoticeResponses (warnings, notices) in the order they came. */
  notices: { severity: string; message: string }[];
}

/**
 * Text from Postgres's bytes. Most of what the lab reads is short ASCII (command tags, numbers, names,
 * timestamps), for which building the string directly is several times faster than a TextDecoder call.
 */
function textOf(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 64) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (bytes[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** Splits Postgres's answer into replies, one per ReadyForQuery. */
export function readReplies(bytes: Uint8Array): Reply[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const replies: Reply[] = [];
  let reply = emptyReply();
  /** The columns of the statement in progress (a Simple Query of several statements describes each). */
  let described: Reply['columns'] = null;
  let at = 0;
  let pos = 0;
  const cstring = (): string => {
    const zero = bytes.indexOf(0, pos);
    const text = textOf(bytes, pos, zero);
    pos = zero + 1;
    return text;
  };
  while (at + 5 <= bytes.length) {
    const type = bytes[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    pos = at + 5;
    switch (type) {
      case 0x74: {
        // ParameterDescription
        const count = view.getInt16(pos);
        for (let i = 0; i < count; i++) reply.paramTypes.push(view.getInt32(pos + 2 + i * 4));
        break;
      }
      case 0x54: {
        // RowDescription
        const count = view.getInt16(pos);
        pos += 2;
        reply.columns = [];
        described = reply.columns;
        for (let i = 0; i < count; i++) {
          const name = cstring();
          reply.columns.push({ name, type: view.getInt32(pos + 6) });
          pos += 18;
        }
        break;
      }
      case 0x44: {
        // DataRow
        const count = view.getInt16(pos);
        pos += 2;
        const cells: (string | null)[] = [];
        for (let i = 0; i < count; i++) {
          const size = view.getInt32(pos);
          pos += 4;
          if (size < 0) {
            cells.push(null);
            continue;
          }
          cells.push(textOf(bytes, pos, pos + size));
          pos += size;
        }
        reply.rows.push(cells);
        break;
      }
      case 0x43:
        // CommandComplete
        reply.completed.push({ rows: reply.rows, tag: cstring(), columns: described });
        reply.rows = [];
        described = null;
        break;
      case 0x49:
        // EmptyQueryResponse: a statement with nothing in it, complete.
        reply.completed.push({ rows: reply.rows, tag: '', columns: null });
        reply.rows = [];
        break;
      case 0x45: {
        // ErrorResponse: the first error counts, as in PGlite.
        const fields = new Map<string, string>();
        while (bytes[pos] !== 0 && pos < end) {
          const code = String.fromCharCode(bytes[pos]!);
          pos += 1;
          fields.set(code, cstring());
        }
        reply.error ??= new WireError(fields.get('M') ?? 'unknown error', fields.get('C') ?? 'XX000', fields.get('D') ?? null, fields.get('S') ?? 'ERROR');
        break;
      }
      case 0x4e: {
        // NoticeResponse
        const fields = new Map<string, string>();
        while (bytes[pos] !== 0 && pos < end) {
          const code = String.fromCharCode(bytes[pos]!);
          pos += 1;
          fields.set(code, cstring());
        }
        reply.notices.push({ severity: fields.get('S') ?? 'NOTICE', message: fields.get('M') ?? '' });
        break;
      }
      case 0x5a:
        // ReadyForQuery
        reply.status = String.fromCharCode(bytes[pos]!);
        replies.push(reply);
        reply = emptyReply();
        break;
      default:
        // ParseComplete, BindComplete, CloseComplete, NoData, parameter status: nothing to keep.
        break;
    }
    at = end;
  }
  return replies;
}

function emptyReply(): Reply {
  return { paramTypes: [], columns: null, completed: [], rows: [], error: null, status: 'I', notices: [] };
}
