/**
 * How the command line fails. Exit code 1 means "unsafe" to a CI job, so nothing else may end in 1: bad
 * input, a statement of yours that fails when run, a server that goes away, a statement that runs too long
 * and any fault of the lab's own end in exit code 2 with one line on stderr (and, with --json, one JSON
 * object on stdout); a signal ends in 128 + its number (130 for Ctrl+C, 143 for SIGTERM).
 */
import type { LabDatabase, SessionId, StatementRequest } from '../db/port';
import { sqlStateOf } from '../db/values';
import type { StatementOutcome } from '../sim/types';
import { CUSTOM_CLAIM_IDS, CUSTOM_REAPER_ID, CUSTOM_WRITE_IDS } from '../strategies/custom';
import type { LabStatement } from '../strategies';

export const EXIT_BAD_INPUT = 2;
export const EXIT_SIGNAL: Record<'SIGINT' | 'SIGTERM', number> = { SIGINT: 130, SIGTERM: 143 };

/** An error whose message is the whole story for the person at the terminal (main.ts prints it as one line). */
export class CliFailure extends Error {
  readonly userFacing = true;
}

/** A statement stopped by the command line's own watchdog (PGlite in a worker thread, pglite-thread.ts). */
export class StatementTimedOut extends CliFailure {
  readonly statementTimedOut = true;
  constructor(seconds: number) {
    super(timeoutLine(seconds));
  }
}

/** The one line to print for any error: its own message when it is meant for the user, otherwise what went wrong where. */
export function failureLine(error: unknown): string {
  const e = error as { message?: unknown; userFacing?: unknown; code?: unknown; severity?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const first = message.split('\n')[0]!.trim();
  if (e?.userFacing) return first;
  // Wherever the run noticed it (a worker's statement, the observer, a reset): the server went away.
  if (isConnectionLoss(typeof e?.code === 'string' ? e.code : '', first)) return connectionLost(first).message;
  // An error from a PostgreSQL server (it carries a SQLSTATE and a severity): the user's server, not a bug here.
  if (typeof e?.code === 'string' && typeof e?.severity === 'string') return `the PostgreSQL server failed: ${first} (SQLSTATE ${e.code})`;
  if (error instanceof RangeError && /call stack/i.test(message)) return 'the input is nested too deeply for the lab to read';
  return `the lab failed (this is a fault of the lab's, not of your input): ${first || (error as Error)?.name || 'unknown error'}`;
}

/**
 * Every id a statement someone wrote runs under: the claim, its derived probes and resumes, the writes and the
 * reaper. A reaper that fails sweeps nothing, and a check that played on would call the runs it never put
 * back safe.
 */
const YOUR_STATEMENT_IDS: ReadonlySet<string> = new Set<string>([
  ...Object.values(CUSTOM_CLAIM_IDS),
  ...[...Object.values(CUSTOM_WRITE_IDS), CUSTOM_REAPER_ID].flatMap((id) => [id, `${id}-probe`]),
]);

/**
 * The answers a concurrent statement may honestly get from PostgreSQL, which the lab plays on: a NOWAIT that
 * met a locked row (55P03) and the transaction-rollback class (serialization failure, deadlock). Any other
 * error of a statement of yours is the statement's own (a missing column, a type that does not fit, a column
 * assigned twice, an operator that does not exist): bad input, not a schedule's outcome.
 */
function isConcurrencyOutcome(code: string): boolean {
  return code === '55P03' || code.startsWith('40');
}

const QUERY_CANCELED = '57014';

/**
 * The server went away under a statement (a restart, an administrator's shutdown, a network fault): the
 * transactions the schedule depends on are gone, so the run cannot honestly go on.
 */
function isConnectionLoss(code: string, message: string): boolean {
  if (code.startsWith('57P') || (code.startsWith('08') && code !== '08P01')) return true;
  return /connection terminated|not queryable|ECONNRESET|EPIPE/i.test(message);
}

function connectionLost(message: string): CliFailure {
  return new CliFailure(`the connection to the PostgreSQL server was lost (${message}); the run stopped, since its open transactions are gone`);
}

function isYours(statement: LabStatement | undefined): statement is LabStatement {
  return statement !== undefined && YOUR_STATEMENT_IDS.has(statement.id);
}

function whose(statement: LabStatement): string {
  return statement.file ?? 'your statement';
}

/** What one statement of yours did over the whole run: answers, and the last error when there were only errors. */
export interface YourClaimTally {
  answered: number;
  failed: number;
  lastError: { code: string; message: string } | null;
}

/**
 * The port, stopped with a one-line CliFailure the moment a statement of yours fails as a statement (see
 * isConcurrencyOutcome), or runs past the statement timeout; the claim's answers are counted, so that a
 * claim that only ever failed is reported as bad input rather than "safe".
 */
export function stopOnYourStatementFailure<T extends LabDatabase>(db: T, timeoutSeconds: number): T & { yourClaim: YourClaimTally } {
  const tally: YourClaimTally = { answered: 0, failed: 0, lastError: null };
  const waitingWith = new Map<SessionId, LabStatement>();
  /** The last statement of yours sent: the one a watchdog's timeout stopped, whichever call noticed it. */
  let lastYours: LabStatement | null = null;
  const fail = (statement: LabStatement, why: string): never => {
    throw new CliFailure(`${whose(statement)}: ${why}`);
  };
  const judge = (session: SessionId, statement: LabStatement | undefined, outcome: StatementOutcome): StatementOutcome => {
    if (outcome.status === 'blocked') {
      if (statement) waitingWith.set(session, statement);
      return outcome;
    }
    waitingWith.delete(session);
    if (outcome.status === 'error' && isConnectionLoss(outcome.code, outcome.message)) throw connectionLost(outcome.message);
    if (!isYours(statement)) return outcome;
    const isClaim = statement.id === CUSTOM_CLAIM_IDS.claim;
    if (outcome.status === 'ok') {
      if (isClaim) tally.answered++;
      return outcome;
    }
    if (outcome.code === QUERY_CANCELED) fail(statement, timeoutLine(timeoutSeconds));
    if (!isConcurrencyOutcome(outcome.code)) fail(statement, `the statement fails when run: ${outcome.message} (SQLSTATE ${outcome.code})`);
    if (isClaim) {
      tally.failed++;
      tally.lastError = { code: outcome.code, message: outcome.message };
    }
    return outcome;
  };
  const thrown = (statement: LabStatement | undefined, error: unknown): never => {
    const e = error as { code?: unknown; message?: unknown; userFacing?: unknown };
    const message = typeof e.message === 'string' ? e.message.split('\n')[0]! : String(error);
    if (!e.userFacing && isConnectionLoss(typeof e.code === 'string' ? e.code : '', message)) throw connectionLost(message);
    if ((error as { statementTimedOut?: unknown }).statementTimedOut)
      fail(statement ?? lastYours ?? { id: '', text: '', file: null, params: [], probe: null, afterWait: { kind: 'none' } as never }, message);
    if (isYours(statement) && !e.userFacing) {
      const sqlState = sqlStateOf(error);
      if (sqlState !== null) {
        if (sqlState === QUERY_CANCELED) fail(statement, timeoutLine(timeoutSeconds));
        fail(statement, `the statement fails when run: ${message} (SQLSTATE ${sqlState})`);
      }
    }
    throw error;
  };
  const wrap =
    (call: (session: SessionId, request: StatementRequest) => Promise<StatementOutcome>) =>
    async (session: SessionId, request: StatementRequest): Promise<StatementOutcome> => {
      if (isYours(request.statement)) lastYours = request.statement;
      let outcome: StatementOutcome;
      try {
        outcome = await call(session, request);
      } catch (error) {
        return thrown(request.statement, error);
      }
      return judge(session, request.statement, outcome);
    };
  const execute = db.execute.bind(db);
  const executeClaim = db.executeClaim.bind(db);
  const retryBlocked = db.retryBlocked.bind(db);
  db.execute = wrap(execute);
  db.executeClaim = wrap(executeClaim);
  db.retryBlocked = async (session) => {
    const statement = waitingWith.get(session);
    let outcome: StatementOutcome;
    try {
      outcome = await retryBlocked(session);
    } catch (error) {
      return thrown(statement, error);
    }
    return judge(session, statement, outcome);
  };
  return Object.assign(db, { yourClaim: tally });
}

/** A claim that failed every time it ran is bad input, whatever the schedules say: null when it ever answered. */
export function claimThatOnlyFailed(file: string, tally: YourClaimTally): CliFailure | null {
  if (tally.answered > 0 || tally.failed === 0 || !tally.lastError) return null;
  return new CliFailure(
    `${file}: the claim failed every time it ran (${tally.failed} times), so no schedule says anything about it: ${tally.lastError.message} (SQLSTATE ${tally.lastError.code})`,
  );
}

function timeoutLine(seconds: number): string {
  return `a statement ran longer than ${seconds} s (--statement-timeout) and was stopped: a claim that never ends cannot be checked`;
}

/**
 * What a signal closes before the process exits (main.ts, stopOnSignal): the databases a command has open
 * right now. On a server, closing cancels the run's statements and drops what the run created (its schema
 * and role, or a spec's throwaway database and role). A command adds what it opens and deletes it when it
 * closes it itself.
 */
export const closeOnSignal = new Set<{ readonly kind: string; close(): Promise<void> }>();
