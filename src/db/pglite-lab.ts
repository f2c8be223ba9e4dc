/**
 * The lab's database on PGlite: Postgres compiled to WebAssembly, one session for every worker.
 *
 * One session cannot hold several open transactions, and a statement that waits for a row lock never
 * returns inside PGlite. So a worker's open claim transaction is parked with PREPARE TRANSACTION (its row
 * locks stay, the session moves on), and a statement that might wait is first probed with the same row
 * test under NOWAIT: 55P03 means "would wait", and the statement is not sent until the holder finishes.
 */
import type { PGliteInterface } from '@electric-sql/pglite';
import type { RunRow, StatementOutcome } from '../sim/types';
import type { ConsoleStatement } from '../sql/console';
import { PROBES, parameterCount, type SqlId, sqlText } from '../sql/registry';
import type { ConsoleAnswer, HeldLock, LabDatabase, SessionId, StatementRequest } from './port';
import { consoleError, consoleValue } from './console-answer';
import { normalizeRow, toOutcomeError } from './values';

const LOCK_NOT_AVAILABLE = '55P03';
/** Dead rows from DELETE-based resets are cleared this often, so the table stays a few pages long. */
const VACUUM_EVERY_RESETS = 256;
/** Seeded tables remembered for resets (one per scenario the learner or a lesson question plays). */
const SEEDS_REMEMBERED = 64;

/** The console's query runs as this cursor, so only the rows shown cross from Postgres to JavaScript. */
const CONSOLE_CURSOR = 'lease_lab_console';
const CONSOLE_DECLARE = `DECLARE ${CONSOLE_CURSOR} NO SCROLL CURSOR FOR\n`;
/** The most rows a console answer carries; the rest are counted, not sent. */
export const CONSOLE_MAX_ROWS = 1000;
const asText = (text: string) => text;
/** Postgres's own text for values JavaScript would round (int8, numeric) or show less readably (timestamps, json, bytea). */
const CONSOLE_PARSERS = { 17: asText, 20: asText, 114: asText, 1082: asText, 1114: asText, 1184: asText, 1700: asText, 3802: asText };

interface Waiting {
  request: StatementRequest;
  claim: boolean;
  /**
   * For a plain FOR UPDATE claim: the runs it found when it began to wait, in the order it visits them.
   * A real server's waiter keeps this list: once the lock is free it locks these rows one by one,
   * re-checking each, keeps every lock it took, and claims the first row that still qualifies.
   */
  found: number[] | null;
}

export class PGliteLab implements LabDatabase {
  readonly kind = 'pglite' as const;
  private clock: string | null = null;
  /** Sessions whose claim transaction is parked as a prepared transaction. */
  private readonly parked = new Set<SessionId>();
  private readonly waiting = new Map<SessionId, Waiting>();
  private note: string | null = null;
  private resets = 0;
  /**
   * What runs() and locks() last read, kept until something could have changed it: committed rows change
   * only when a write commits, row locks only when a claim parks or a parked transaction ends. A step that
   * changes neither (a SELECT, a claim that found nothing, an UPDATE that matched no row) reads nothing.
   */
  private runsRead: RunRow[] | null = null;
  private locksRead: HeldLock[] | null = null;
  /** The runs table right after seeding, per seed: a reset of the same scenario needs no read. */
  private readonly seededRuns = new Map<string, RunRow[]>();
  /** Set by a reset whose seed is not in seededRuns yet, until the next read (or write). */
  private freshSeed: string | null = null;
  /**
   * Prepared transactions this class did not park itself may exist (a data directory from elsewhere, a
   * console statement): until the first reset, and after the console ran, a reset asks the server.
   */
  private mayHaveForeignPrepared = true;

  private constructor(readonly pg: PGliteInterface) {}

  /** Wraps a started PGlite; creates the lab's schema unless the data directory already has it. */
  static async open(pg: PGliteInterface): Promise<PGliteLab> {
    await pg.exec(sqlText('session-setup'));
    const found = await pg.query<{ present: string | null }>(`SELECT to_regclass('public.runs')::text AS present`);
    if (!found.rows[0]?.present) await pg.exec(sqlText('schema'));
    return new PGliteLab(pg);
  }

  async reset(seedJson: string): Promise<void> {
    // A parked transaction's row locks would make the DELETE wait (and PGlite never returns): end them all.
    const gids = this.mayHaveForeignPrepared
      ? (await this.pg.query<{ gid: string }>(sqlText('prepared-transactions'))).rows.map((row) => row.gid)
      : [...this.parked].map(gidOf);
    for (const gid of gids) await this.pg.exec(`ROLLBACK PREPARED '${safeGid(gid)}'`);
    this.mayHaveForeignPrepared = false;
    this.parked.clear();
    this.waiting.clear();
    // The clock setting is the session's and survives the reset: this.clock still says what it is.
    this.note = null;
    await this.pg.exec(sqlText('clear-runs'));
    this.resets += 1;
    if (this.resets % VACUUM_EVERY_RESETS === 0) await this.pg.exec(sqlText('vacuum-runs'));
    await this.pg.query(sqlText('seed-runs'), [seedJson]);
    this.runsRead = this.seededRuns.get(seedJson) ?? null;
    this.freshSeed = this.runsRead ? null : seedJson;
    this.locksRead = [];
  }

  async execute(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    await this.setClock(request.clockIso);
    const holders = await this.probe(session, request, false);
    if (holders) return this.block(session, request, false, holders);
    try {
      const result = await this.pg.query(sqlText(request.sqlId), request.params);
      // Outside a claim every statement commits on its own: rows it wrote are committed rows.
      if ((result.affectedRows ?? 0) > 0) this.committedRowsChanged();
      return { status: 'ok', rows: result.rows.map(normalizeRow), rowCount: result.rows.length };
    } catch (error) {
      return toOutcomeError(error);
    }
  }

  executeClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    return this.claimTransaction(session, request, null);
  }

  /** BEGIN and the claim; then PREPARE (rows) or COMMIT (none). `found`: a waiting claim resumes (see Waiting). */
  private async claimTransaction(session: SessionId, request: StatementRequest, found: number[] | null): Promise<StatementOutcome> {
    await this.setClock(request.clockIso);
    const holders = await this.probe(session, request, true);
    if (holders) return this.block(session, request, true, holders, found ?? (await this.candidates(request)));
    await this.pg.exec('BEGIN');
    const lockedRun = found === null ? null : await this.relockFound(found);
    if (lockedRun !== null) {
      await this.pg.exec('ROLLBACK');
      return this.block(session, request, true, await this.holdersOfRun(lockedRun, session), found);
    }
    try {
      const result = await this.pg.query(sqlText(request.sqlId), request.params);
      if (result.rows.length > 0) {
        await this.pg.exec(`PREPARE TRANSACTION '${gidOf(session)}'`);
        this.parked.add(session);
        this.locksRead = null;
        this.note = `PGlite has one session, so the lab parked ${session}'s open transaction with PREPARE TRANSACTION '${gidOf(session)}': its row lock stays held while other workers run.`;
      } else {
        await this.pg.exec('COMMIT');
      }
      return { status: 'ok', rows: result.rows.map(normalizeRow), rowCount: result.rows.length };
    } catch (error) {
      await this.pg.exec('ROLLBACK');
      return toOutcomeError(error);
    }
  }

  /**
   * Inside the resumed claim's transaction: lock the rows it had found, in order, up to the first that
   * still qualifies, as a real server's waiter does. Returns a run whose row someone else holds (the
   * claim must wait again), or null.
   */
  private async relockFound(found: number[]): Promise<number | null> {
    for (const runId of found) {
      try {
        const row = await this.pg.query<{ qualifies: boolean }>(sqlText('relock-candidate'), [runId]);
        if (row.rows[0]?.qualifies) return null;
      } catch (error) {
        if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error;
        return runId;
      }
    }
    return null;
  }

  /** The parked sessions that lock this run. */
  private async holdersOfRun(runId: number, session: SessionId): Promise<SessionId[]> {
    const locks = await this.locks();
    return locks
      .filter((lock) => lock.session !== session && lock.runIds.includes(runId))
      .map((lock) => lock.session)
      .sort();
  }

  async retryBlocked(session: SessionId): Promise<StatementOutcome> {
    const waiting = this.waiting.get(session);
    if (!waiting) throw new Error(`${session} is not waiting`);
    this.waiting.delete(session);
    const outcome = waiting.claim
      ? await this.claimTransaction(session, waiting.request, waiting.found)
      : await this.execute(session, waiting.request);
    if (outcome.status !== 'blocked') {
      const parkedNote = this.note ? ` ${this.note}` : '';
      this.note = waiting.found
        ? `PGlite cannot wait, so the lab ran the claim again once the lock was free, first locking, in order, the rows it had found when it began to wait, up to the first that still qualifies. A real server's waiter does the same and keeps those locks until it commits, even on rows that no longer qualify; it would not see a run that became claimable while it waited.${parkedNote}`
        : `PGlite cannot wait, so the lab ran the statement again once the lock was free. A real server would have resumed the waiting statement instead, re-checking only the row it waited for.${parkedNote}`;
    }
    return outcome;
  }

  async commit(session: SessionId): Promise<StatementOutcome> {
    if (!this.parked.has(session)) return { status: 'error', code: '25P01', message: 'there is no transaction in progress' };
    await this.pg.exec(`COMMIT PREPARED '${gidOf(session)}'`);
    this.parked.delete(session);
    this.committedRowsChanged();
    this.locksRead = null;
    this.note = `On PGlite the parked transaction was committed with COMMIT PREPARED '${gidOf(session)}'.`;
    return { status: 'ok', rows: [], rowCount: 0 };
  }

  async crash(session: SessionId): Promise<void> {
    this.waiting.delete(session);
    if (this.parked.delete(session)) {
      await this.pg.exec(`ROLLBACK PREPARED '${gidOf(session)}'`);
      this.locksRead = null;
      this.note = `The dead worker's open transaction rolled back (on PGlite: ROLLBACK PREPARED '${gidOf(session)}'), releasing its row lock.`;
    }
  }

  /** The committed runs table. The array is shared with later calls: callers must not change it. */
  async runs(): Promise<RunRow[]> {
    if (this.runsRead) return this.runsRead;
    if (!this.locksRead && this.parked.size > 0) {
      // Both are stale: one statement reads the rows and their lockers together.
      const result = await this.pg.query<RunRow & { locked_by: string | null }>(sqlText('runs-and-locks-pglite'));
      this.locksRead = locksFrom(result.rows.filter((row) => row.locked_by !== null).map((row) => ({ handle: row.locked_by!, run_id: row.run_id })));
      this.runsRead = result.rows.map(({ locked_by: _, ...row }) => normalizeRow(row) as unknown as RunRow);
    } else {
      const result = await this.pg.query(sqlText('runs-snapshot'));
      this.runsRead = result.rows.map((row) => normalizeRow(row) as unknown as RunRow);
    }
    if (this.freshSeed !== null && this.seededRuns.size < SEEDS_REMEMBERED) this.seededRuns.set(this.freshSeed, this.runsRead);
    this.freshSeed = null;
    return this.runsRead;
  }

  async locks(): Promise<HeldLock[]> {
    if (this.locksRead) return this.locksRead;
    // Only parked transactions hold row locks here; with none parked there is nothing to ask.
    if (this.parked.size === 0) {
      this.locksRead = [];
      return this.locksRead;
    }
    const result = await this.pg.query<{ handle: string; run_id: number }>(sqlText('held-locks-pglite'));
    this.locksRead = locksFrom(result.rows);
    return this.locksRead;
  }

  takeEngineNote(): string | null {
    const note = this.note;
    this.note = null;
    return note;
  }

  async runConsole(statement: ConsoleStatement, clockIso: string, maxRows: number): Promise<ConsoleAnswer> {
    const limit = Math.max(1, Math.min(CONSOLE_MAX_ROWS, Math.floor(maxRows)));
    const options = { rowMode: 'array' as const, parsers: CONSOLE_PARSERS };
    // Read-only: Postgres itself refuses writes and row locks (25006) before it touches a row, so the
    // statement can neither change the workers' state nor wait for their locks. Always rolled back.
    await this.pg.exec('BEGIN READ ONLY');
    // Nothing the console sends should outlive its transaction; the next reset checks anyway.
    this.mayHaveForeignPrepared = true;
    let started = performance.now();
    try {
      // The learner's now() reads the lab's clock at this step; SET LOCAL ends with the transaction.
      await this.pg.query(`SELECT set_config('sim.now', $1, true)`, [clockIso]);
      started = performance.now();
      let fields: { name: string }[];
      let rows: unknown[][];
      let rowCount: number;
      if (statement.cursor) {
        await this.pg.query(`${CONSOLE_DECLARE}${statement.sql}\n`);
        const first = await this.pg.query<unknown[]>(`FETCH FORWARD ${limit} FROM ${CONSOLE_CURSOR}`, [], options);
        const more = first.rows.length < limit ? 0 : ((await this.pg.query(`MOVE FORWARD ALL IN ${CONSOLE_CURSOR}`)).rowCount ?? 0);
        fields = first.fields;
        rows = first.rows as unknown[][];
        rowCount = rows.length + more;
      } else {
        const result = await this.pg.query<unknown[]>(statement.sql, [], options);
        fields = result.fields;
        rows = (result.rows as unknown[][]).slice(0, limit);
        rowCount = result.rows.length;
      }
      const ms = performance.now() - started;
      return { kind: 'rows', columns: fields.map((f) => f.name), rows: rows.map((row) => row.map(consoleValue)), rowCount, ms };
    } catch (error) {
      // Only Postgres's own errors are the learner's answer; anything else is the engine failing.
      const answer = consoleError(error, statement, CONSOLE_DECLARE.length, performance.now() - started);
      if (!answer) throw error;
      return answer;
    } finally {
      await this.pg.exec('ROLLBACK');
    }
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  private committedRowsChanged(): void {
    this.runsRead = null;
    this.freshSeed = null;
  }

  private async setClock(iso: string): Promise<void> {
    if (iso === this.clock) return;
    await this.pg.query(sqlText('set-clock'), [iso]);
    this.clock = iso;
  }

  /**
   * Would the statement wait for a row lock? Only parked transactions hold locks, so with none parked it
   * cannot. Otherwise run the statement's NOWAIT twin inside a transaction that is always rolled back.
   * Returns the sessions holding locks when it would wait, or null.
   */
  private async probe(session: SessionId, request: StatementRequest, claim: boolean): Promise<SessionId[] | null> {
    const probeId: SqlId | undefined = PROBES[request.sqlId];
    const others = [...this.parked].filter((s) => s !== session);
    if (!probeId || others.length === 0) return null;
    let wouldWait = false;
    await this.pg.exec('BEGIN');
    try {
      await this.pg.query(sqlText(probeId), request.params.slice(0, parameterCount(probeId)));
    } catch (error) {
      // Any other error belongs to the statement itself; it will raise it when it runs.
      wouldWait = (error as { code?: string }).code === LOCK_NOT_AVAILABLE;
    } finally {
      // The probe only asks; whatever it locked or aborted ends here, before anything else is read.
      await this.pg.exec('ROLLBACK');
    }
    return wouldWait ? this.holdersFor(request, claim, others) : null;
  }

  /** Which parked sessions hold the lock: the holder of the target run, or (for a claim) every parked session. */
  private async holdersFor(request: StatementRequest, claim: boolean, others: SessionId[]): Promise<SessionId[]> {
    if (claim) return others.sort();
    const target = request.params[0];
    const locks = await this.locks();
    const holders = locks.filter((lock) => lock.runIds.includes(Number(target))).map((lock) => lock.session);
    return (holders.length > 0 ? holders : others).sort();
  }

  private block(session: SessionId, request: StatementRequest, claim: boolean, holders: SessionId[], found: number[] | null = null): StatementOutcome {
    this.waiting.set(session, { request, claim, found });
    this.note = `PGlite never returns from a lock wait, so the lab did not send this statement: it ran the same row test with FOR UPDATE NOWAIT, got ${LOCK_NOT_AVAILABLE} (lock not available), and will run it when ${holders.join(' and ')} finishes.`;
    return { status: 'blocked', holders };
  }

  /** For a plain FOR UPDATE claim about to wait: the runs it has found (under the clock already set). */
  private async candidates(request: StatementRequest): Promise<number[] | null> {
    if (request.sqlId !== 'claim-for-update') return null;
    const result = await this.pg.query<{ run_id: number }>(sqlText('claim-candidates'));
    return result.rows.map((row) => row.run_id);
  }
}

/** Row locks by parked session, from (prepared transaction, run) pairs in gid and run order. */
function locksFrom(rows: readonly { handle: string; run_id: number }[]): HeldLock[] {
  const bySession = new Map<string, HeldLock>();
  for (const row of rows) {
    const session = row.handle.replace(/^lease_lab_/, '');
    const lock = bySession.get(session) ?? { session, handle: row.handle, runIds: [] };
    lock.runIds.push(row.run_id);
    bySession.set(session, lock);
  }
  return [...bySession.values()].sort((a, b) => a.handle.localeCompare(b.handle));
}


/** Prepared-transaction names are built only from worker ids (a capital letter) or OP. */
function gidOf(session: SessionId): string {
  return safeGid(`lease_lab_${session}`);
}

function safeGid(gid: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(gid)) throw new Error(`unexpected prepared transaction name ${gid}`);
  return gid;
}
