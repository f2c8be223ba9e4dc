/**
 * The one door to a database. The engine speaks only this interface; PGlite (one session, with parked
 * transactions) and a real PostgreSQL server (one connection per worker) sit behind it.
 */
import type { ConsoleStatement } from '../sql/console';
import type { SqlId } from '../sql/registry';
import type { StrictIsolation } from '../sim/isolation';
import type { RunRow, StatementOutcome, Value } from '../sim/types';
import type { LabStatement } from '../strategies';
import type { EngineFact } from '../sim/narration';

/** A worker's id, or OPERATOR_SESSION (sim/types.ts) for the operator who requests cancellations. */
export type SessionId = string;

export interface StatementRequest {
  /** The statement, with what an adapter needs to know about waiting: its NOWAIT probe and what it does after a wait. */
  statement: LabStatement;
  params: Value[];
  /** The virtual clock for this statement, as ISO text; sim.now() returns it. */
  clockIso: string;
  /**
   * With executeClaim, on a real server only: the statement belongs to the session's explicit claim
   * transaction at this level (BEGIN ISOLATION LEVEL …, sent only when none is open). It stays open with
   * rows, and also after an error (aborted, until rollback()); with no rows it commits.
   */
  isolation?: StrictIsolation;
  /**
   * With executeClaim: the UPDATE of a two-statement claim, which goes on in the transaction its SELECT began
   * and left open (a new one when the SELECT's found nothing and ended it).
   */
  continues?: true;
}

export interface WakeOrder {
  order: SessionId[];
  /**
   * A session still waits for one that began waiting after it and got in first: the server chose among
   * waiters woken at once differently from the oldest-first order PGlite follows.
   */
  overtaken: boolean;
}

/** One prepared transaction or open transaction and the runs it has locked. */
export interface HeldLock {
  session: SessionId;
  /** PGlite: the prepared transaction's gid; PostgreSQL: the backend pid. */
  handle: string;
  runIds: number[];
}

/** A cell of a console result: Postgres's own text for timestamps, numerics, int8, json and bytea. */
export type ConsoleValue = string | number | boolean | null;

/** What the learner's console statement gave: rows (the first few of `rowCount`), or Postgres's error. */
export type ConsoleAnswer =
  | { kind: 'rows'; columns: string[]; rows: ConsoleValue[][]; rowCount: number; ms: number }
  | { kind: 'error'; code: string; message: string; detail: string | null; hint: string | null; position: number | null; ms: number };

export interface LabDatabase {
  readonly kind: 'pglite' | 'postgres';
  /** Ends every open transaction and reloads `runs` with these rows (JSON for seed-runs.sql). */
  reset(seedJson: string, sessions: SessionId[]): Promise<void>;
  /** One autocommit statement. Returns blocked, without waiting, where it would wait for a row lock. */
  execute(session: SessionId, request: StatementRequest): Promise<StatementOutcome>;
  /**
   * BEGIN and one statement. If it returns rows the transaction stays open and its row locks are held;
   * with no rows it commits, and on an error it rolls back. Returns blocked where it would wait.
   */
  executeClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome>;
  /** For a session whose statement was blocked: blocked again, or the statement's real answer. */
  retryBlocked(session: SessionId): Promise<StatementOutcome>;
  /**
   * A real server only. After a transaction ended, the sessions waiting for a lock (oldest waiter first), in
   * the order the server let them on: those whose statement has answered first, then those still waiting.
   * Without it the engine asks them oldest first, which is PGlite's order (it runs each in turn).
   */
  wakeOrder?(waiting: SessionId[]): Promise<WakeOrder>;
  /** COMMIT the session's open transaction. */
  commit(session: SessionId): Promise<StatementOutcome>;
  /** ROLLBACK the session's open transaction (one that failed at REPEATABLE READ / SERIALIZABLE): a real server only. */
  rollback?(session: SessionId): Promise<StatementOutcome>;
  /** The session's process died: its open transaction rolls back and a waiting statement is dropped. */
  crash(session: SessionId): Promise<void>;
  /** The committed `runs` table, ordered by run_id. */
  runs(): Promise<RunRow[]>;
  /** Transactions that hold row locks right now. */
  locks(): Promise<HeldLock[]>;
  /** How PGlite was made to do what a real server does, for the step just run, as data (null on a real server). */
  takeEngineFact(): EngineFact | null;
  /**
   * The learner's console statement (already checked), inside a read-only transaction that is always
   * rolled back, with sim.now() at `clockIso`. Returns at most `maxRows` rows and counts the rest.
   */
  runConsole?(statement: ConsoleStatement, clockIso: string, maxRows: number): Promise<ConsoleAnswer>;
  close(): Promise<void>;
}

/** One statement of a backpressure step, by id, with its $n parameters. */
export interface BackpressureStatement {
  sqlId: SqlId;
  params: Value[];
}

/**
 * The backpressure lab's door to a database. Unlike the race lab, nothing stays open between steps:
 * every call is one whole transaction, so many runs and workers cost no parked transactions, and on a
 * real server several sessions may call at once (the ground-truth tests do).
 */
export interface BackpressureDatabase {
  readonly kind: 'pglite' | 'postgres';
  /** Empties `runs`. */
  clear(): Promise<void>;
  /**
   * On the session's own connection, with sim.now() at `clockIso`: one statement alone (autocommit), or
   * several inside BEGIN … COMMIT. Returns the last statement's answer; an error rolls back and is returned.
   */
  transaction(session: SessionId, clockIso: string, statements: BackpressureStatement[]): Promise<StatementOutcome>;
  /**
   * Several transactions at one clock, each as transaction() would run it and one after another in this
   * order (each sees the ones before it committed); an answer per transaction. The engine plays a whole
   * second this way, so PGlite can take it in one trip.
   */
  transactions(clockIso: string, batch: BackpressureTransaction[]): Promise<StatementOutcome[]>;
  close(): Promise<void>;
}

/**
 * An error a port throws for a step the lab refuses to play (db/unreplayable.ts): the engine, which knows the
 * step and the schedule it was met in, has its one line name them (engine/simulation.ts apply).
 */
export interface RefusedAtStep {
  placeAt(step: string): void;
}

/** One whole transaction of a backpressure step: whose, and its statements. */
export interface BackpressureTransaction {
  session: SessionId;
  statements: BackpressureStatement[];
}
