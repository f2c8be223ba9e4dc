/**
 * The lab's database on PGlite: Postgres compiled to WebAssembly, one session for every worker.
 *
 * One session cannot hold several open transactions, and a statement that waits for a row lock never
 * returns inside PGlite. So a worker's open claim transaction is parked with PREPARE TRANSACTION (its row
 * locks stay, the session moves on), and a statement that might wait is first probed with the same row
 * test under NOWAIT: 55P03 means "would wait", and the statement is not sent until the holder finishes.
 *
 * The lab's own statements go through PGliteWire: each .sql file is a named prepared statement, and a
 * step's statements (the clock, BEGIN, the claim; PREPARE and the read of the locks it left) travel
 * together, one call into Postgres per batch. The learner's console uses PGlite's query() as usual.
 */
import type { PGliteInterface } from '@electric-sql/pglite';
import type { RunRow, StatementOutcome, Value } from '../sim/types';
import { CONSOLE_ROWS_FETCHED, type ConsoleStatement } from '../sql/console';
import { highestParameter, sqlText } from '../sql/registry';
import { BUILT_IN_STRATEGIES, CANCEL_REQUEST, type LabStatement, PAGE_STATEMENTS, type StatementText, type StrategyDefinition } from '../strategies';
import { type FencedPair, type ParamName, type ParamSource, paramValues } from '../strategies/types';
import { yourStatementName } from '../strategies/custom';
import type { ConsoleAnswer, HeldLock, LabDatabase, SessionId, StatementRequest } from './port';
import { consoleError, consoleValue } from './console-answer';
import { PGliteWire, type WirePiece, type WireResult } from './pglite-wire';
import { UnreplayableWait } from './unreplayable';
import { normalizeRow, toOutcomeError } from './values';
import type { EngineFact } from '../sim/narration';

const LOCK_NOT_AVAILABLE = '55P03';
/** Seeded tables remembered for resets (one per scenario the learner or a lesson question plays). */
const SEEDS_REMEMBERED = 64;

/**
 * PGlite's replies when the statement's Parse was lost. Postgres's parser and analyzer recurse once per
 * level of nesting (`1+1+…` nests one level per term). PostgreSQL's own guard, max_stack_depth (2 MB),
 * measures the wasm's stack in memory, but the engine running the wasm (V8's call stack, ~1 MB) runs out
 * first: a statement a few hundred levels deep traps inside Parse, PGlite's glue drops the trap without
 * an ErrorResponse, and the Describe and Bind that follow fail on a statement that was never made.
 * Measured in Node with PGlite 0.5.17: 200 terms answer, 300 fail with 24000, 700 and more with 26000;
 * with `node --stack-size=20000` 4,000 terms answer 4000, as a real server does.
 */
const LOST_PARSE = new Map([
  ['26000', 'unnamed prepared statement does not exist'],
  ['24000', 'cannot drop portal "" while it is being set up'],
]);

/** Names PGlite's lost Parse for what it is (see LOST_PARSE), or null for any other error. */
export function lostParse(answer: Extract<ConsoleAnswer, { kind: 'error' }>): Extract<ConsoleAnswer, { kind: 'error' }> | null {
  if (LOST_PARSE.get(answer.code) !== answer.message) return null;
  return {
    ...answer,
    code: '54001',
    message:
      'PGlite could not parse this statement: it nests too deeply for the stack PGlite runs on in this page (a chain like 1+1+…+1 nests one level per term). A real PostgreSQL server parses it; its own limit, max_stack_depth (2 MB by default), is far deeper. Shorten or flatten the statement.',
    detail: `PGlite's own reply was “${answer.code} ${answer.message}”: the statement's Parse ran out of the JavaScript engine's stack and was lost, so the steps after it found nothing. This is a divergence of the in-browser Postgres from a real server.`,
    hint: null,
    position: null,
  };
}

/** The console's query runs as this cursor, so only the rows shown cross from Postgres to JavaScript. */
const CONSOLE_CURSOR = 'lease_lab_console';
const CONSOLE_DECLARE = `DECLARE ${CONSOLE_CURSOR} NO SCROLL CURSOR FOR\n`;
const asText = (text: string) => text;
/** Postgres's own text for values JavaScript would round (int8, numeric) or show less readably (timestamps, json, bytea). */
const CONSOLE_PARSERS = { 17: asText, 20: asText, 114: asText, 1082: asText, 1114: asText, 1184: asText, 1700: asText, 3802: asText };

/**
 * What a waiting claim found when it began to wait, which a real server's waiter keeps (see AfterWait).
 * `runs` (relock-found, a plain FOR UPDATE finder): the runs it found, in the order it visits them; once
 * the lock is free it locks them one by one, re-checking each, keeps every lock it took, and claims the
 * first that still qualifies. `values` (resume-found, a finder that locks nothing): what its CTEs and
 * sub-selects gave, as JSON text, and the runs its UPDATE matched; once free, the UPDATE re-evaluates its
 * WHERE on those runs' newest versions against those values.
 */
type FoundBeforeWait = { kind: 'runs'; runs: number[] } | { kind: 'values'; frozen: Value[]; targets: number[] };

interface Waiting {
  request: StatementRequest;
  claim: boolean;
  found: FoundBeforeWait | null;
}

/** What PGliteLab answers runs() and locks() with from memory (see readsKept). */
export interface KeptReads {
  runs: RunRow[] | null;
  locks: HeldLock[] | null;
}

export class PGliteLab implements LabDatabase {
  readonly kind = 'pglite' as const;
  private clock: string | null = null;
  /** Sessions whose claim transaction is parked as a prepared transaction. */
  private readonly parked = new Set<SessionId>();
  private readonly waiting = new Map<SessionId, Waiting>();
  private note: EngineFact | null = null;
  /**
   * What runs() and locks() last read, kept until something could have changed it: committed rows change
   * only when a write commits, row locks only when a claim parks or a parked transaction ends. A step that
   * changes neither (a SELECT, a claim that found nothing, an UPDATE that matched no row) reads nothing;
   * a step that changes them reads them in the same call as its statement.
   */
  private runsRead: RunRow[] | null = null;
  private locksRead: HeldLock[] | null = null;
  /** The runs table right after seeding, per seed: a reset of the same scenario needs no read. */
  private readonly seededRuns = new Map<string, RunRow[]>();
  /**
   * Prepared transactions this class did not park itself may exist (a data directory from elsewhere, a
   * console statement): until the first reset, and after the console ran, a reset asks the server.
   */
  private mayHaveForeignPrepared = true;
  private readonly wire: PGliteWire;
  /** Statements Postgres answered with a command that writes no rows (SELECT): no read of runs after them. */
  private readonly readOnly = new WeakSet<StatementText>();
  private readonly parameterCounts = new WeakMap<StatementText, number>();

  private constructor(readonly pg: PGliteInterface) {
    this.wire = new PGliteWire(pg);
  }

  /**
   * Wraps a started PGlite; creates the lab's schema unless the data directory already has it.
   * `schemaPresent`: the caller knows it does (a pre-built data directory), so nothing is asked.
   */
  static async open(pg: PGliteInterface, options: { schemaPresent?: boolean } = {}): Promise<PGliteLab> {
    const lab = new PGliteLab(pg);
    // Plain commands, not prepared: the lab's statements are prepared after this, under its search_path.
    const [setup, found] = await lab.wire.run([
      { command: sqlText('session-setup') },
      ...(options.schemaPresent ? [] : [{ command: sqlText('runs-table-present') }]),
    ]);
    const failed = setup?.error ?? found?.error;
    if (failed) throw failed;
    if (found && found.rows[0]?.present !== true) await pg.exec(sqlText('schema'));
    return lab;
  }

  async reset(seedJson: string): Promise<void> {
    // A parked transaction's row locks would make the DELETE wait (and PGlite never returns): end them all.
    const gids = this.mayHaveForeignPrepared ? (await this.wire.one('prepared-transactions')).rows.map((row) => String(row.gid)) : [...this.parked].map(gidOf);
    this.mayHaveForeignPrepared = false;
    this.parked.clear();
    this.waiting.clear();
    // The clock setting is the session's and survives the reset: this.clock still says what it is.
    this.note = null;
    const cached = this.seededRuns.get(seedJson) ?? null;
    const results = await this.run([
      ...gids.map((gid) => ({ command: `ROLLBACK PREPARED '${safeGid(gid)}'` })),
      // TRUNCATE, not DELETE: every reset gives a fresh heap, so the same schedule meets the rows in the same
      // physical order whatever ran before. After DELETE, dead rows' space was reused by history and a claim
      // without ORDER BY took run 124 first in one replay and run 123 in another (claim corpus 13).
      { sqlId: 'truncate-runs' },
      { sqlId: 'seed-runs', params: [seedJson] },
      // A seed not seen before: its rows are read in the same call (the caller reads them next).
      ...(cached ? [] : [{ sqlId: 'runs-snapshot' as const }]),
    ]);
    this.runsRead = cached ?? runRowsOf(results.at(-1)!);
    if (!cached && this.seededRuns.size < SEEDS_REMEMBERED) this.seededRuns.set(seedJson, this.runsRead);
    this.locksRead = [];
  }

  async execute(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    const clock = this.clockPieces(request.clockIso);
    const wait = await this.probe(session, request, false, clock);
    if (wait) return this.block(session, request, false, wait.holders);
    // A statement that writes: the committed rows are read in the same call, as every step shows them next.
    const readsAfter = !this.readOnly.has(request.statement);
    const results = await this.run([
      ...clock,
      { statement: request.statement, params: request.params, mayFail: true },
      ...(readsAfter ? [{ sqlId: 'runs-snapshot' as const }] : []),
    ]);
    const result = results[clock.length]!;
    if (result.error) return toOutcomeError(result.error);
    if (!result.writes) this.readOnly.add(request.statement);
    // Outside a claim every statement commits on its own: rows it wrote are committed rows.
    if (result.affectedRows > 0) this.runsRead = runRowsOf(results.at(-1)!);
    // A completion that deletes its run may return nothing: how many rows it deleted is its answer.
    const rowCount = request.statement.deletesRun ? result.affectedRows : result.rows.length;
    return { status: 'ok', rows: result.rows.map(normalizeRow), rowCount };
  }

  executeClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    if (request.continues && this.parked.has(session)) return this.continueClaim(session, request);
    return this.claimTransaction(session, request, null);
  }

  /**
   * The UPDATE of a two-statement claim, whose SELECT's transaction is parked. A parked transaction runs
   * nothing more, so it ends and a new one takes its place (ARCHITECTURE.md, "a worker whose transaction must
   * run more statements"). A SELECT that locked nothing leaves nothing behind under READ COMMITTED: the
   * transaction commits and the UPDATE begins a new one, as a one-statement claim does. One that locked rows
   * is rolled back and begun again holding the same rows, taken again in the same call (relock-held-runs.sql),
   * so no other worker runs in between; its UPDATE then runs in it and it is parked again.
   */
  private async continueClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    const gid = gidOf(session);
    const held = (await this.locks()).find((lock) => lock.session === session)?.runIds ?? [];
    this.parked.delete(session);
    this.locksRead = null;
    if (held.length === 0) {
      await this.run([{ command: `COMMIT PREPARED '${gid}'` }]);
      return this.claimTransaction(session, request, null);
    }
    let opening: LabPiece[] = [...this.clockPieces(request.clockIso), { command: `ROLLBACK PREPARED '${gid}'` }];
    const relock: LabPiece[] = [{ command: 'BEGIN' }, { sqlId: 'relock-held-runs', params: [`{${held.join(',')}}`] }];
    const { probe } = request.statement;
    if (probe && this.parked.size > 0) {
      // Its UPDATE may still meet a row another worker holds (one its SELECT did not lock). Asked in a transaction
      // of its own, rolled back, before the relock: a probe in a savepoint of the relocked transaction would lock
      // the same rows again under a subtransaction, and PostgreSQL would record the lock as a MultiXact.
      const params = request.params.slice(0, this.parameterCount(probe));
      const asked = await this.run([...opening, { command: 'BEGIN' }, { statement: probe, params, mayFail: true }, { command: 'ROLLBACK' }]);
      opening = [];
      if (asked.at(-2)!.error?.code === LOCK_NOT_AVAILABLE) {
        // Parked again, holding what its SELECT locked, before saying why the lab stops here.
        const parkedAgain = await this.run([...relock, ...this.parkPieces(session)]);
        this.expectRelocked(parkedAgain[1]!, held);
        this.parked.add(session);
        this.locksRead = locksFrom(heldLockRowsOf(parkedAgain.at(-1)!));
        const reason = `its UPDATE would wait for a row another worker holds while its transaction holds the row its SELECT locked, a wait the lab cannot replay: check it on a real server (npm run sim -- check … --db URL)`;
        throw new UnreplayableWait(`${request.statement.file ?? 'the claim'}: refused on PGlite: ${reason}`, request.statement.id, reason);
      }
    }
    const results = await this.run([
      ...opening,
      ...relock,
      { statement: request.statement, params: request.params, mayFail: true },
      ...this.parkPieces(session),
    ]);
    this.expectRelocked(results[opening.length + 1]!, held);
    return this.parkClaim(session, results, request.statement.deletesRun === true);
  }

  /** The relock of a continued claim took every row its parked transaction held, or the engine has gone wrong. */
  private expectRelocked(result: WireResult, held: readonly number[]): void {
    const relocked = result.rows.map((row) => Number(row.run_id));
    if (relocked.join() !== [...held].sort((a, b) => a - b).join()) {
      throw new Error(`a continued claim relocked runs ${relocked.join(', ') || 'none'}, not the ${held.join(', ')} its SELECT held`);
    }
  }

  /** BEGIN and the claim; then PREPARE (rows) or COMMIT (none). `found`: a waiting claim resumes (see Waiting). */
  private async claimTransaction(session: SessionId, request: StatementRequest, found: FoundBeforeWait | null): Promise<StatementOutcome> {
    if (found?.kind === 'values') return this.resumeClaim(session, request, found);
    const clock = this.clockPieces(request.clockIso);
    const wait = await this.probe(session, request, true, clock);
    if (wait) return this.block(session, request, true, wait.holders, found ?? wait.found);
    const claim: LabPiece = { statement: request.statement, params: request.params, mayFail: true };
    let results: WireResult[];
    if (found === null) {
      results = await this.run([...clock, { command: 'BEGIN' }, claim, ...this.parkPieces(session)]);
    } else {
      const afterWait = request.statement.afterWait;
      if (afterWait.kind !== 'relock-found') throw new Error(`${request.statement.id} does not relock what it found`);
      const lockedRun = await this.relockFound(found.runs, afterWait.relock, [...clock, { command: 'BEGIN' }]);
      if (lockedRun !== null) {
        await this.run([{ command: 'ROLLBACK' }]);
        return this.block(session, request, true, await this.holdersOfRuns([lockedRun], session), found);
      }
      results = await this.run([claim, ...this.parkPieces(session)]);
    }
    return this.parkClaim(session, results, request.statement.deletesRun === true);
  }

  /**
   * A claim whose finder locks nothing, once the lock it waited for is free: its UPDATE with what the finder
   * found before the wait frozen in, restricted to the runs it matched then, so its WHERE is re-evaluated on
   * their newest versions as a real server's waiter does (EvalPlanQual). A third worker may have locked one
   * of those runs meanwhile: its NOWAIT twin asks first, and the claim waits again, keeping what it found.
   */
  private async resumeClaim(session: SessionId, request: StatementRequest, found: Extract<FoundBeforeWait, { kind: 'values' }>): Promise<StatementOutcome> {
    const afterWait = request.statement.afterWait;
    if (afterWait.kind !== 'resume-found') throw new Error(`${request.statement.id} does not resume with what it found`);
    let opening = this.clockPieces(request.clockIso);
    const params: Value[] = [...request.params, ...found.frozen, `{${found.targets.join(',')}}`];
    const others = [...this.parked].filter((s) => s !== session);
    if (others.length > 0) {
      const asked = await this.run([...opening, { command: 'BEGIN' }, { statement: afterWait.resumeProbe, params, mayFail: true }, { command: 'ROLLBACK' }]);
      opening = [];
      if (asked.at(-2)!.error?.code === LOCK_NOT_AVAILABLE) return this.block(session, request, true, await this.holdersOfRuns(found.targets, session), found);
    }
    const resumed: LabPiece = { statement: afterWait.resume, params, mayFail: true };
    return this.parkClaim(
      session,
      await this.run([...opening, { command: 'BEGIN' }, resumed, ...this.parkPieces(session)]),
      request.statement.deletesRun === true,
    );
  }

  /**
   * PREPARE goes in the same call as the claim, and the read of the locks it keeps after it: a claim that
   * found a row is parked at once. One that found none parked an empty transaction, committed just below
   * (nothing in it to see); one that failed made PREPARE roll back, as PREPARE does in a failed transaction.
   */
  private parkPieces(session: SessionId): LabPiece[] {
    return [{ command: `PREPARE TRANSACTION '${gidOf(session)}'` }, { sqlId: 'held-locks-pglite' }];
  }

  /**
   * The claim's answer from the call that ran it and parkPieces(); keeps it parked when it took a run.
   * `deletes`: the statement is a held job's completion that deletes its run (check --hold-for-job), whose
   * answer is how many rows it deleted; one that returned no row commits here, with its writes.
   */
  private async parkClaim(session: SessionId, results: WireResult[], deletes = false): Promise<StatementOutcome> {
    const [result, , locks] = results.slice(-3) as [WireResult, WireResult, WireResult];
    if (result.error) {
      this.locksRead = locksFrom(heldLockRowsOf(locks));
      return toOutcomeError(result.error);
    }
    const rows = result.rows;
    if (rows.length > 0) {
      this.parked.add(session);
      this.locksRead = locksFrom(heldLockRowsOf(locks));
      this.note = { kind: 'parked', session, gid: gidOf(session) };
    } else if (result.affectedRows > 0) {
      // A write that returned nothing (a held job's DELETE): the committed rows change here too.
      const [, read] = await this.run([{ command: `COMMIT PREPARED '${gidOf(session)}'` }, this.runsAndLocksPiece()]);
      this.storeRunsAndLocks(read!);
    } else {
      const [, after] = await this.run([{ command: `COMMIT PREPARED '${gidOf(session)}'` }, { sqlId: 'held-locks-pglite' }]);
      this.locksRead = locksFrom(heldLockRowsOf(after!));
    }
    return { status: 'ok', rows: rows.map(normalizeRow), rowCount: deletes ? result.affectedRows : rows.length };
  }

  /**
   * Inside the resumed claim's transaction (`opening` begins it, in the same call as the first row): lock
   * the rows it had found, in order, up to the first that still qualifies, as a real server's waiter does.
   * Returns a run whose row someone else holds (the claim must wait again), or null.
   */
  private async relockFound(found: number[], relock: StatementText, opening: LabPiece[]): Promise<number | null> {
    let before = opening;
    for (const runId of found) {
      const row = (await this.run([...before, { statement: relock, params: [runId], mayFail: true }])).at(-1)!;
      before = [];
      if (row.error) {
        if (row.error.code !== LOCK_NOT_AVAILABLE) throw row.error;
        return runId;
      }
      if (row.rows[0]?.qualifies) return null;
    }
    if (before.length > 0) await this.run(before);
    return null;
  }

  /** The parked sessions that lock any of these runs. */
  private async holdersOfRuns(runIds: readonly number[], session: SessionId): Promise<SessionId[]> {
    const locks = await this.locks();
    return locks
      .filter((lock) => lock.session !== session && lock.runIds.some((run) => runIds.includes(run)))
      .map((lock) => lock.session)
      .sort();
  }

  async retryBlocked(session: SessionId): Promise<StatementOutcome> {
    const waiting = this.waiting.get(session);
    if (!waiting) throw new Error(`${session} is not waiting`);
    this.waiting.delete(session);
    const outcome = waiting.claim
      ? await this.claimTransaction(session, waiting.request, waiting.found)
      : ((await this.waitsAgainForRow(session, waiting.request)) ?? (await this.execute(session, waiting.request)));
    if (outcome.status !== 'blocked') {
      const replay = waiting.found?.kind === 'values' ? 'found-values' : waiting.found ? 'found-rows' : 'statement';
      this.note = { kind: 'ran-after-wait', replay, after: this.note };
    }
    return outcome;
  }

  /**
   * A write that waited runs again only once nobody else locks the row it waited for (its first parameter,
   * the run id): a real server's waiter locks the row's newest version before re-checking its WHERE, so a
   * claim that locked the row meanwhile (a plain FOR UPDATE claim keeps the rows it relocked, even those that
   * no longer qualify) keeps it waiting, though the row no longer matches. The write's own probe tests its
   * WHERE first and would let it through. Blocked again, or null when the write may run.
   */
  private async waitsAgainForRow(session: SessionId, request: StatementRequest): Promise<StatementOutcome | null> {
    const runId = Number(request.params[0]);
    if (!Number.isInteger(runId) || ![...this.parked].some((s) => s !== session)) return null;
    const [, relock] = await this.run([{ command: 'BEGIN' }, { sqlId: 'relock-waited-row', params: [runId], mayFail: true }, { command: 'ROLLBACK' }]);
    if (relock!.error?.code !== LOCK_NOT_AVAILABLE) return null;
    const holders = await this.holdersOfRuns([runId], session);
    return this.block(session, request, false, holders.length > 0 ? holders : [...this.parked].filter((s) => s !== session).sort());
  }

  async commit(session: SessionId): Promise<StatementOutcome> {
    if (!this.parked.has(session)) return { status: 'error', code: '25P01', message: 'there is no transaction in progress' };
    this.parked.delete(session);
    this.locksRead = null;
    // The committed rows and the locks still held change here, and every step shows them next: read both now.
    const [, read] = await this.run([{ command: `COMMIT PREPARED '${gidOf(session)}'` }, this.runsAndLocksPiece()]);
    this.storeRunsAndLocks(read!);
    this.note = { kind: 'commit-prepared', gid: gidOf(session) };
    return { status: 'ok', rows: [], rowCount: 0 };
  }

  async crash(session: SessionId): Promise<void> {
    this.waiting.delete(session);
    if (this.parked.delete(session)) {
      const [, locks] = await this.run([{ command: `ROLLBACK PREPARED '${gidOf(session)}'` }, { sqlId: 'held-locks-pglite' }]);
      this.locksRead = locksFrom(heldLockRowsOf(locks!));
      this.note = { kind: 'rollback-prepared', gid: gidOf(session) };
    }
  }

  /** The committed runs table. The array is shared with later calls: callers must not change it. */
  async runs(): Promise<RunRow[]> {
    if (this.runsRead) return this.runsRead;
    const [read] = await this.run([this.runsAndLocksPiece()]);
    return this.storeRunsAndLocks(read!);
  }

  async locks(): Promise<HeldLock[]> {
    if (this.locksRead) return this.locksRead;
    // Only parked transactions hold row locks here; with none parked there is nothing to ask.
    if (this.parked.size === 0) {
      this.locksRead = [];
      return this.locksRead;
    }
    const [read] = await this.run([{ sqlId: 'held-locks-pglite' }]);
    this.locksRead = locksFrom(heldLockRowsOf(read!));
    return this.locksRead;
  }

  /**
   * What runs() and locks() would answer now without asking Postgres; null where they would ask. The
   * command line's thread (cli/pglite-thread.ts) keeps a copy, so that a read costs it no round trip.
   */
  readsKept(): KeptReads {
    return { runs: this.runsRead, locks: this.locksRead };
  }

  takeEngineFact(): EngineFact | null {
    const note = this.note;
    this.note = null;
    return note;
  }

  async runConsole(statement: ConsoleStatement, clockIso: string, maxRows: number): Promise<ConsoleAnswer> {
    const limit = Math.max(1, Math.min(CONSOLE_ROWS_FETCHED, Math.floor(maxRows)));
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
      return lostParse(answer) ?? answer;
    } finally {
      await this.pg.exec('ROLLBACK');
    }
  }

  /**
   * Work that compiles the step's paths ahead of the learner's first click (the wasm compiles Postgres's
   * functions on first use, the JIT the lab's JavaScript), as small pieces, one call into Postgres each,
   * for the caller to run in idle time between requests. Every piece leaves no trace: it runs inside a
   * transaction it rolls back (a session-level set_config rolls back with it), or parks and then rolls
   * back its own prepared transaction in the same call; it reads and changes none of this class's state.
   * A piece is skipped unless it is sure nothing can wait: with a transaction parked (by a step, or one
   * this class does not know of), a write or a plain FOR UPDATE could wait on its lock, and PGlite never
   * returns from a lock wait.
   */
  warmUpPieces(): (() => Promise<void>)[] {
    const piece = (statements: (run: number) => LabPiece[]) => async () => {
      const run = this.runsRead?.[0]?.run_id;
      if (run === undefined || this.parked.size > 0 || this.waiting.size > 0 || this.mayHaveForeignPrepared) return;
      // Errors are answers here (a fenced update that matches nothing, say): each piece only warms. The
      // closing ROLLBACK ends the transaction whatever happened in it.
      await this.wire.run([{ command: 'BEGIN' }, ...statements(run), { command: 'ROLLBACK' }]);
    };
    const gid = safeGid('lease_lab_warm_up');
    // As a claim step runs it (see claimTransaction), but the prepared transaction is rolled back at once.
    const parked = (claim: WarmUpStatement, run: number): LabPiece[] => [
      warmUpPieceOf(claim, run),
      { command: `PREPARE TRANSACTION '${gid}'` },
      { sqlId: 'held-locks-pglite' },
      { command: `ROLLBACK PREPARED '${gid}'` },
    ];
    const readsAfter: LabPiece[] = [{ sqlId: 'runs-and-locks-pglite' }, { sqlId: 'runs-snapshot' }];
    // After ROLLBACK PREPARED no transaction is open: BEGIN one for the piece's closing ROLLBACK.
    const claimCycle = (claim: WarmUpStatement) => (run: number) => [...parked(claim, run), ...readsAfter, { command: 'BEGIN' }];
    const each = (list: readonly WarmUpStatement[]) => (run: number) => list.map((item) => warmUpPieceOf(item, run));
    const { claims, twoStep, writes, endings, probes } = WARM_UP;
    // The first cycle compiles most of what every claim step runs (the claim's plan and row locks, the
    // prepared transaction, the lock reads): in one call it was the warm-up's longest piece, and a click
    // that came meanwhile waited for all of it. In three calls the longest is the claim alone: in a traced
    // Chromium start, 211 of the cycle's 288 wasm functions compiled on first use, the PREPARE 67, the reads 10.
    const [first, ...rest] = claims;
    const firstCycle = first
      ? [piece((run) => [warmUpPieceOf(first, run)]), piece((run) => [...parked(first, run), { command: 'BEGIN' }]), piece(() => readsAfter)]
      : [];
    return [
      ...firstCycle,
      ...rest.map((claim) => piece(claimCycle(claim))),
      piece((run) => [{ sqlId: 'set-clock', params: [WARM_UP_CLOCK] }, ...each(twoStep)(run)]),
      piece(each(writes)),
      piece(each(endings)),
      piece(each(probes)),
      // The commit of a claim that found nothing: an empty prepared transaction, committed.
      piece(() => [{ command: `PREPARE TRANSACTION '${gid}'` }, { command: `COMMIT PREPARED '${gid}'` }, { command: 'BEGIN' }]),
    ];
  }

  async close(): Promise<void> {
    await this.pg.close();
  }

  /**
   * The statement that moves sim.now() to `iso`, to go first in the step's batch; none when it is there
   * already. Remembered as set at once: the batch that carries it always reaches Postgres.
   */
  private clockPieces(iso: string): LabPiece[] {
    if (iso === this.clock) return [];
    this.clock = iso;
    return [{ sqlId: 'set-clock', params: [iso] }];
  }

  /**
   * Would the statement wait for a row lock? Only parked transactions hold locks, so with none parked it
   * cannot. Otherwise run the statement's NOWAIT probe inside a transaction that is always rolled back, in
   * one call with the clock. When it would wait: the sessions holding the locks, and for a statement that
   * relocks what it found after a wait, the runs it has found (read in the same call, under the same
   * clock); null when it would not.
   */
  private async probe(
    session: SessionId,
    request: StatementRequest,
    claim: boolean,
    clock: LabPiece[],
  ): Promise<{ holders: SessionId[]; found: FoundBeforeWait | null } | null> {
    const { probe, afterWait } = request.statement;
    const others = [...this.parked].filter((s) => s !== session);
    if (!probe || others.length === 0) return null;
    const kept: LabPiece | null =
      afterWait.kind === 'relock-found'
        ? { statement: afterWait.candidates }
        : afterWait.kind === 'resume-found'
          ? { statement: afterWait.found, params: request.params.slice(0, this.parameterCount(afterWait.found)) }
          : null;
    // The probe only asks; whatever it locked or aborted ends with the ROLLBACK, before anything else is read.
    const results = await this.run([
      ...clock,
      { command: 'BEGIN' },
      { statement: probe, params: request.params.slice(0, this.parameterCount(probe)), mayFail: true },
      { command: 'ROLLBACK' },
      ...(kept ? [kept] : []),
    ]);
    // Any other error belongs to the statement itself; it will raise it when it runs.
    const wouldWait = results[clock.length + 1]!.error?.code === LOCK_NOT_AVAILABLE;
    if (!wouldWait) return null;
    const read = results.at(-1)!;
    if (afterWait.kind === 'relock-found')
      return { holders: await this.holdersFor(request, claim, others), found: { kind: 'runs', runs: read.rows.map((row) => Number(row.run_id)) } };
    if (afterWait.kind === 'resume-found') {
      const found = valuesFound(read.rows[0] ?? {}, afterWait.frozenCount);
      if (found.targets.length > 1) {
        const reason = `its UPDATE would wait with ${found.targets.length} runs matched (${found.targets.join(', ')}); on a real server it locks the matched runs it passes before the one it waits for and holds them while it waits, which the lab cannot replay on PGlite: check it on a real server (npm run sim -- check … --db URL)`;
        throw new UnreplayableWait(
          `${request.statement.file ?? yourStatementName(request.statement.id) ?? 'the claim'}: refused`,
          request.statement.id,
          reason,
        );
      }
      return { holders: await this.holdersOfRuns(found.targets, session), found };
    }
    return { holders: await this.holdersFor(request, claim, others), found: null };
  }

  /** Which parked sessions hold the lock: the holder of the target run, or (for a claim) every parked session. */
  private async holdersFor(request: StatementRequest, claim: boolean, others: SessionId[]): Promise<SessionId[]> {
    if (claim) return others.sort();
    const target = request.params[0];
    const locks = await this.locks();
    const holders = locks.filter((lock) => lock.runIds.includes(Number(target))).map((lock) => lock.session);
    return (holders.length > 0 ? holders : others).sort();
  }

  private block(session: SessionId, request: StatementRequest, claim: boolean, holders: SessionId[], found: FoundBeforeWait | null = null): StatementOutcome {
    const { afterWait, file } = request.statement;
    if (afterWait.kind === 'server-only') {
      const reason = `it would wait here, and ${afterWait.why}`;
      throw new UnreplayableWait(`${file ?? yourStatementName(request.statement.id) ?? 'the statement'}: refused on PGlite`, request.statement.id, reason);
    }
    this.waiting.set(session, { request, claim, found });
    this.note = { kind: 'probed', code: LOCK_NOT_AVAILABLE, holders };
    return { status: 'blocked', holders };
  }

  /** One call into Postgres. An error of a piece not marked mayFail is the engine failing: thrown. */
  private async run(pieces: readonly LabPiece[]): Promise<WireResult[]> {
    try {
      const results = await this.wire.run(pieces);
      const failed = results.findIndex((result, i) => result.error && !pieces[i]!.mayFail);
      if (failed >= 0) throw results[failed]!.error;
      return results;
    } catch (error) {
      // clockPieces() took the clock as set, but a call that failed may have stopped before its set-clock
      // ran (a statement Postgres could not prepare): the next statement sets it again.
      this.clock = null;
      throw error;
    }
  }

  /** The runs table, and with it who locks which row when that is unknown (with nobody parked: nobody). */
  private runsAndLocksPiece(): LabPiece {
    if (this.parked.size === 0) this.locksRead = [];
    return { sqlId: this.locksRead ? 'runs-snapshot' : 'runs-and-locks-pglite' };
  }

  /** Keeps what runsAndLocksPiece() read; returns the runs. */
  private storeRunsAndLocks(read: WireResult): RunRow[] {
    if (!this.locksRead) {
      const locked = read.rows.filter((row) => row.locked_by !== null).map((row) => ({ handle: String(row.locked_by), run_id: Number(row.run_id) }));
      this.locksRead = locksFrom(locked);
    }
    this.runsRead = runRowsOf(read);
    return this.runsRead;
  }

  /** How many parameters a probe takes, counted once per statement. */
  private parameterCount(probe: StatementText): number {
    let count = this.parameterCounts.get(probe);
    if (count === undefined) {
      count = highestParameter(probe.text);
      this.parameterCounts.set(probe, count);
    }
    return count;
  }
}

/** Warm-up statements name no real worker, and set a clock of their own (rolled back with them). */
const WARM_UP_WORKER = 'warm_up';
const WARM_UP_CLOCK = '2030-01-01T00:00:00.000Z';

/** A statement the warm-up runs, and the values it takes. */
interface WarmUpStatement {
  statement: StatementText;
  params: readonly ParamSource[];
}

/** A worker's values for the warm-up: generation 1, a 60 s lease. */
function warmUpPieceOf({ statement, params }: WarmUpStatement, run: number): LabPiece {
  const values: Record<ParamName, Value> = { worker: WARM_UP_WORKER, leaseSeconds: 60, run, generation: 1, costCents: 1, result: 'warm-up' };
  return { statement, params: paramValues(params, values) };
}

/**
 * What the warm-up runs, from the strategies' definitions: each atomic claim as a claim step runs it; the
 * two-step claims' statements; the owner's writes; the completions and the cancel (apart, as before the
 * strategies were data); the probes (with their statement's first values) and what a resumed claim reads.
 */
const WARM_UP = (() => {
  const distinct = (list: WarmUpStatement[]) => [...new Map(list.map((item) => [item.statement.id, item])).values()];
  const own = (statement: LabStatement): WarmUpStatement => ({ statement, params: statement.params });
  const claims = distinct(BUILT_IN_STRATEGIES.flatMap((d) => (d.claim.shape === 'one-statement' ? [own(d.claim.claim)] : [])));
  const twoStep = distinct(BUILT_IN_STRATEGIES.flatMap((d) => (d.claim.shape === 'select-then-update' ? [own(d.claim.select), own(d.claim.update)] : [])));
  const pairs = (pick: (d: StrategyDefinition) => FencedPair[]) =>
    BUILT_IN_STRATEGIES.flatMap((d) => pick(d).flatMap((pair) => [own(pair.fenced), own(pair.unfenced)]));
  const writes = distinct(pairs((d) => [d.heartbeat, d.work]));
  const endings = distinct([...pairs((d) => [d.complete]), own(CANCEL_REQUEST), ...pairs((d) => [d.cancelAck])]);
  const probes = distinct(
    [...PAGE_STATEMENTS.values()].flatMap((s) => [
      ...(s.afterWait.kind === 'relock-found'
        ? [
            { statement: s.afterWait.candidates, params: [] },
            { statement: s.afterWait.relock, params: ['run' as const] },
          ]
        : []),
      ...(s.probe ? [{ statement: s.probe, params: s.params.slice(0, highestParameter(s.probe.text)) }] : []),
    ]),
  );
  return { claims, twoStep, writes, endings, probes };
})();

/** A statement for this.run(): mayFail when its error is an answer (the learner's statement, a probe). */
type LabPiece = WirePiece & { mayFail?: boolean };

/** The row of a resume-found claim's `found` query: its frozen_n values as JSON text, and its targets. */
function valuesFound(row: Record<string, unknown>, frozenCount: number): Extract<FoundBeforeWait, { kind: 'values' }> {
  const frozen = Array.from({ length: frozenCount }, (_, i) => {
    const value = row[`frozen_${i + 1}`];
    return value === null || value === undefined ? null : JSON.stringify(value);
  });
  // The wire leaves an integer[] as Postgres's text, {121,122}; an empty array is {}.
  const text = String(row.targets ?? '{}');
  const targets = Array.isArray(row.targets)
    ? row.targets.map(Number)
    : text
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean)
        .map(Number);
  return { kind: 'values', frozen, targets };
}

/** Runs as the lab shows them; a `locked_by` column (runs-and-locks-pglite) is not part of a run. */
function runRowsOf(read: WireResult): RunRow[] {
  return read.rows.map(({ locked_by: _, ...row }) => normalizeRow(row) as unknown as RunRow);
}

function heldLockRowsOf(read: WireResult): { handle: string; run_id: number }[] {
  return read.rows.map((row) => ({ handle: String(row.handle), run_id: Number(row.run_id) }));
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
