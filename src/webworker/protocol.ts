/**
 * The messages between the page and the engine's Web Worker. Everything is plain data (structured
 * clone), and every request carries an id so the page can match answers and time out the ones that hang.
 * The requests' payloads are defined here; which requests exist, and what each answers, is the request
 * table's (requests.ts).
 */
import type { YourSqlRefusal } from '../strategies/custom';
import type { ConsoleAnswer, ConsoleValue } from '../db/port';
import type { RefusedToken } from '../engine/replay';
import type { RecordedSummary } from '../recordings';
import type { BackpressureConfig, ClaimPolicy, ClaimRecord, TickMetrics } from '../sim/backpressure/types';
import type { StepReply } from '../spec/output';
import type { StepTrace } from '../spec/run';
import type { RunRow, Scenario, Settings, TraceStep, WorkerId, WorkerState } from '../sim/types';
import type { TableRequest, TableResultOf } from './requests';

/** What the page needs to know about the end of the trace to offer the next moves. */
export interface EndStatus {
  /** Workers that can take a step now, in name order. */
  movable: WorkerId[];
  /** No worker can move and nothing on the clock can change that. */
  isOver: boolean;
  /** The next moment something happens on its own (a lease expiring, a timed fault), or null. */
  nextEventSeconds: number | null;
  clockSeconds: number;
}

/** A schedule token the engine refused, and why (the ScheduleError's words). */
export type { RefusedToken };
/** A spec step's record and its reply, as the page's lanes draw them (the views reach them through the store). */
export type { StepReply, StepTrace };

export interface LoadRequest {
  type: 'load';
  scenarioId: string;
  settings: Settings;
  schedule: string[];
  /**
   * 'skip': leave out tokens that cannot apply (a schedule replayed under other settings).
   * 'stop': keep the tokens before the first one that cannot apply (a link someone shared).
   */
  onInapplicable: 'skip' | 'stop';
  /** An authored scenario (scenarios/authored.ts), which the engine's context has not met; checked there again. */
  authored?: Scenario;
}

export interface LoadResult {
  scenarioId: string;
  settings: Settings;
  /** The tokens that were applied: the trace's schedule. */
  schedule: string[];
  /** With 'skip': every token left out. With 'stop': at most one, the token the replay stopped at. */
  refused: RefusedToken[];
  /** The state before the first step: the seeded runs table and fresh workers. */
  initialRuns: RunRow[];
  initialWorkers: WorkerState[];
  steps: TraceStep[];
  status: EndStatus;
  /** A trace recorded on a real server (recordings/), not played here: where it ran and its whole schedule. */
  recorded?: RecordedSummary;
}

/**
 * Why the learner's place is opened again: after the engine refused a step of their claim ('refusal'), after
 * their SQL failed while the lab played it ('your-sql-failed', with why), after the engine's Web Worker was
 * replaced ('crash'), after live mode was left for PGlite ('live-lost'), or to open a link or saved place ('link').
 */
export type ReopenAfter = 'refusal' | { yourSqlFailed: string } | 'crash' | 'live-lost' | 'link';

export interface ReopenRequest {
  type: 'reopen';
  place: Omit<LoadRequest, 'type' | 'onInapplicable'>;
  after: ReopenAfter;
  onInapplicable: LoadRequest['onInapplicable'];
}

/**
 * What the reopened place kept, and why: 'replayed' (the place as asked, less the tokens in `dropped`);
 * 'claim-refused' (a statement of the learner's, `role`, cannot play the schedule, so the lab stands before its first step);
 * 'your-sql-failed' (the learner's SQL failed, so the lab plays the scenario's built-in strategy instead).
 */
export type ReopenWhy = { kind: 'replayed' } | ({ kind: 'claim-refused' } & YourSqlRefusal) | { kind: 'your-sql-failed'; reason: string };

/**
 * Why the learner's SQL was not played, as the rest of a sentence: an error PostgreSQL raised running it (it
 * carries a SQLSTATE: a misspelt column, a missing $1), or else the lab's own failure, never blamed on PostgreSQL.
 */
export function whyYourSqlFailed(message: string, sqlState: string | null): string {
  return sqlState !== null ? `PostgreSQL raised an error when the lab ran it (${message})` : `the lab failed while playing it (${message})`;
}

export interface ReopenResult {
  result: LoadResult;
  /** How many of the place's tokens the reopened trace has. */
  kept: number;
  /** The place's tokens that could not be played. */
  dropped: RefusedToken[];
  why: ReopenWhy;
}

export interface ApplyRequest {
  type: 'apply';
  /** Tried in order; the first one that can apply now is applied. */
  candidates: string[];
  /** When no candidate applies: round-robin over movable workers, or move the clock to the next event. */
  fallback: boolean;
}

export interface ApplyResult {
  /** The token applied, or null when nothing could apply (the run is over). */
  token: string | null;
  /** Why each candidate tried before it was refused. */
  refused: RefusedToken[];
  /** The steps the token added. */
  steps: TraceStep[];
  status: EndStatus;
}

/**
 * Makes the engine run a statement that never returns, the way a lock wait does inside PGlite, so the
 * page's watchdog can be seen to work. A developer check, not one of the lab's requests (it is not in the
 * request table): only the Web Worker answers it, only the developer console and the browser tests send it.
 */
interface RunawayRequest {
  type: 'runaway';
}

/**
 * Plays a whole schedule on a scenario (possibly one the lesson built) from a fresh start, for the
 * lesson's predict-then-run questions. The learner's database is lent to it (LabHost.lendDatabase)
 * and taken back, by replay, before the learner's next move.
 */
export interface RunTraceRequest {
  type: 'run-trace';
  scenario: Scenario;
  settings: Settings;
  schedule: string[];
}

/**
 * The learner's SQL console: one statement, read-only, on the database as it stands after the first
 * `upTo` schedule tokens (the cursor may be behind the end of the trace after Back). Behind the end, the
 * database is lent to a replay of that prefix, and taken back by replay before the learner's next move.
 */
export interface ConsoleRequest {
  type: 'console';
  sql: string;
  upTo: number;
  /** Rows to send back at most (the rest are counted). */
  maxRows: number;
}

/** Where the console's statement ran: after this many schedule tokens, at this clock. */
interface ConsoleAt {
  tokens: number;
  clockSeconds: number;
}

export type { ConsoleValue };

export type ConsoleResult = (ConsoleAnswer & { at: ConsoleAt }) | { kind: 'refused'; reason: string };

/**
 * The backpressure lab, on this worker's Postgres (its own schema, see pglite-backpressure.ts): play
 * seconds [from, from + seconds) of one claim policy's lane. Each request stands on its own: a worker
 * that does not hold the lane at `from` (a new one, after the watchdog) replays it there first.
 */
export interface BackpressureRequest {
  type: 'backpressure';
  config: BackpressureConfig;
  policy: ClaimPolicy;
  from: number;
  seconds: number;
}

/** The lane's seconds from `from` on (fewer at its end), the claims made in them, and the lane so far. */
export interface BackpressureChunk {
  ticks: TickMetrics[];
  claims: ClaimRecord[];
  totalRuns: number;
  /** Worker steps from the lane's start to the end of this chunk. */
  steps: number;
  /** The lane has played to its end (every run finished, or the bound was reached). */
  done: boolean;
  finished: boolean;
}

/**
 * "Your SQL"'s own schema: a spec in PostgreSQL's isolation-tester format, pasted, run in the Web Worker on a
 * PGlite of its own (spec-host.ts), never on the learner's database.
 */
export interface SpecRequest {
  type: 'spec';
  text: string;
}

/** One permutation as `npm run sim -- spec --json` reports it. */
export interface SpecPermutationResult {
  steps: string[];
  /** The isolation tester's text for it (as far as it got, when refused). */
  output: string;
  /** Set when it could not be followed to its end on any server (a step needs a session still waiting). */
  invalid: string | null;
  /** Set when PGlite cannot follow it honestly: the step and why, in one line. */
  refused: string | null;
  brokenChecks: string[];
  /** Each step sent, as the runner recorded it (the lanes are drawn from this, never from the text). */
  trace: StepTrace[];
  /** The checks run after its last step (none when it was refused or cannot happen), with their rows. */
  checks: { name: string; broken: boolean; replies: StepReply[] }[];
}

/** A spec's run: 'bad-input' is one line (a parse error names its line and column). */
export type SpecResult =
  | { kind: 'bad-input'; message: string }
  | {
      kind: 'ran';
      /** "Parsed test spec with N sessions". */
      header: string;
      sessions: string[];
      checks: string[];
      permutations: SpecPermutationResult[];
      /** The command line's lines after the tester's text (empty for a spec without checks). */
      summary: string;
      /** The command line's: 0 every check held, 1 a permutation broke one, 2 some were refused and none broke. */
      exitCode: 0 | 1 | 2;
    };

/** Every request the engine answers: the request table's (requests.ts), and the developer's runaway check. */
export type LabRequest = TableRequest | RunawayRequest;

/** What the engine answers to a request: its table entry's result (the runaway check never answers). */
export type LabResultOf<R extends LabRequest> = R extends TableRequest ? TableResultOf<R> : never;

export type ToWebWorker = { id: number; request: LabRequest };

/**
 * Which database the engine runs on. 'live': a real PostgreSQL server through the live bridge (npm run
 * live). 'pglite': Postgres in this tab; `liveProblem` says why live mode was left or could not start.
 */
export type DatabaseInfo = { kind: 'pglite'; liveProblem: string | null } | { kind: 'live'; version: string; where: string };

export type FromWebWorker =
  /**
   * bootSource 'initdb': Postgres was created from scratch (slow) because the pre-built data directory could not be used; bootNote says why.
   * bootRecovered: files of the lab's saved copy that were damaged, discarded and read from the network instead, each with why.
   */
  | { kind: 'ready'; bootMs: number; bootSource?: 'data-dir' | 'initdb'; bootNote?: string | null; bootRecovered?: string[]; database?: DatabaseInfo }
  /** The engine moved to another database while running (live mode lost its server): the learner's steps were replayed there. */
  | { kind: 'database'; database: DatabaseInfo }
  | { kind: 'boot-failed'; message: string }
  /** Sent while a long replay runs, so the watchdog can tell slow from stuck. */
  | { kind: 'progress'; id: number }
  | { kind: 'result'; id: number; result: LabResultOf<LabRequest> }
  /**
   * `refused`: the engine refused a step of the learner's SQL (CustomClaimRefused, or a wait PGlite cannot replay: yourSqlRefusalOf), whose and why.
   * `sqlState`: PostgreSQL raised the error (db/values.ts sqlStateOf); without it the error is the lab's own.
   */
  | { kind: 'error'; id: number; message: string; refused?: YourSqlRefusal; sqlState?: string };
