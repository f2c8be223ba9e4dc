/**
 * The simulation's vocabulary. Everything here is plain data: it serialises to JSON unchanged, so a
 * trace can cross a Web Worker boundary, land in a permalink or be compared byte for byte.
 */

import { STRATEGY_IDS, type SelectThenUpdateAction, type StrategyDefinition, type StrategyId } from '../strategies';
import type { StrictIsolation } from './isolation';
import type { EngineFact, StepFact } from './narration';

/** Workers are named A, B, C… in every scenario. */
export type WorkerId = string;

/** The operator's own database session (requests a cancel, ends a backend): never a worker's letter. */
export const OPERATOR_SESSION = 'OP';

/** A built-in claim strategy's id: one folder of src/strategies/ each (the union comes from their definitions). */
export type Strategy = StrategyId;

export const STRATEGIES: readonly Strategy[] = STRATEGY_IDS;

/** The picker's label of each built-in strategy (defined with the strategies, re-exported beside Strategy). */
export { STRATEGY_LABELS } from '../strategies';

/** A run as the scenario seeds it. Times are seconds on the virtual clock. */
export interface RunSeed {
  runId: number;
  tenant?: string;
  status?: 'pending' | 'running' | 'done' | 'cancelled' | 'failed';
  leaseOwner?: string | null;
  leaseExpiresAtSeconds?: number | null;
  leaseGeneration?: number;
  createdAtSeconds: number;
  costCents?: number;
}

export interface WorkerSpec {
  id: WorkerId;
  /**
   * The name it claims under (bound as the statements' `worker` parameter, so written to lease_owner): its
   * letter when absent. Two workers may share one, as containers with the same hostname and pid 1 do; the
   * lab still tells them apart by their letters.
   */
  name?: string;
  /** Heartbeats but never makes progress: alive, yet stuck. */
  stuck?: boolean;
  /**
   * The process it is a lane of (a thread of one program): lanes of one process share its memory, what it is
   * running. Absent: a process of its own.
   */
  process?: string;
  /**
   * It is its process's recovery at launch, under a queue that has one (StrategyDefinition.recovery): it reads
   * the runs its name (the executor id) still holds, writes the first again by id and runs it. `skipsActive`:
   * first it looks in its process's memory and skips a run another lane of the process is running (DBOS PR
   * #493). Under a queue with no recovery it claims as any worker does.
   */
  recovery?: { skipsActive: boolean };
}

/** Something that happens to a worker when the virtual clock reaches `atSeconds`. */
export type Fault = { kind: 'pause'; worker: WorkerId; atSeconds: number; forSeconds: number } | { kind: 'crash'; worker: WorkerId; atSeconds: number };

export interface Scenario {
  id: string;
  title: string;
  /** Two short lines: what the learner will see. */
  summary: string;
  /** The summary under a strategy whose story differs from the default one's (see scenarioSummary). */
  summaries?: Partial<Record<Strategy, string>>;
  workers: WorkerSpec[];
  runs: RunSeed[];
  defaultStrategy: Strategy;
  defaultFencing: boolean;
  leaseSeconds: number;
  /** null: workers never heartbeat. */
  heartbeatSeconds: number | null;
  /** Model calls a worker makes for one run before it completes it. */
  workSteps: number;
  costPerCallCents: number;
  /** Claim attempts a worker makes (after losing a race or hitting NOWAIT) before it gives up. */
  maxClaimAttempts: number;
  faults: Fault[];
  /** The scripted interleaving, as schedule tokens (see schedule.ts). */
  script: string[];
  /** Concepts this scenario teaches, for the lesson's links. */
  concepts: string[];
  /** A production queue's public incident, replayed: absent for the lesson's own scenarios. */
  incident?: Incident;
  /**
   * The queue's rescue runs as its own process, stepped by `rescue` tokens (a queue with a separate rescuer
   * then claims pending runs only); absent: a queue's rescue is folded into its claim.
   */
  rescuer?: RescuerSpec;
}

interface RescuerSpec {
  /** From this moment on the rescuer takes no step (procrastinate #1408: the rescuing task itself stalled). */
  stallsAtSeconds?: number;
}

/** The queue's rescuer between its steps: the stuck runs its last fetch found and has not written yet. */
export interface RescuerState {
  fetched: { runId: number; generation: number }[];
  /** Its write waits for a row lock. */
  blockedOn: WorkerId[];
}

/**
 * A public bug report replayed as a scenario: the scenario opens under the queue's strategy with its own
 * guard (fencing off), where its script reaches `anomaly`; `fix` is the contrasting setting, which must not.
 */
interface Incident {
  /** The queue it happened under (one of the production queue strategies). */
  queue: Strategy;
  /** owner/repo#number (an issue) or owner/repo PR #number. */
  source: string;
  url: string;
  /** What its users saw, in one or two sentences. */
  whatUsersSaw: string;
  /** The root cause in the lesson's words (claim, lease, heartbeat, fencing, cancellation, limits). */
  rootCause: string;
  /** What the lab leaves out of the report, or plays differently, and why the outcome is the same. */
  inTheLab: string;
  /** The anomaly its script reaches under the queue's own guard. */
  anomaly: AnomalyKind;
  /**
   * The contrasting setting: the queue's own fix where it has one, else the lab's. `scenarioId` is there
   * when the fix is not a guard but a setting that now reaches the job (a lease the queue lost on the way):
   * the fix is then that scenario, the same story and script with the setting the job should have had.
   */
  fix: { strategy: Strategy; fencing: boolean; scenarioId?: string; inWords: string };
}

export interface Settings {
  strategy: Strategy;
  fencing: boolean;
  /**
   * A strategy built from statements someone wrote (see strategies/custom.ts), played instead of the
   * built-in `strategy` names; absent for the built-in ones.
   */
  definition?: StrategyDefinition;
  /**
   * REPEATABLE READ or SERIALIZABLE (a real server only): each claim runs in an explicit transaction at
   * that level, and a worker whose transaction fails with 40001 rolls back and tries again (see
   * sim/isolation.ts). Absent: READ COMMITTED, the lab's own way of running a claim.
   */
  isolation?: StrictIsolation;
}

/** What a worker does when it is scheduled next. */
export type WorkerAction =
  | 'select'
  | SelectThenUpdateAction
  | 'claim'
  | 'commit'
  | 'rollback'
  | 'heartbeat'
  | 'work'
  | 'complete'
  | 'cancel-ack'
  // A recovery lane's (WorkerSpec.recovery): its read, its write by id, and the fixed version's skip.
  | 'recover-read'
  | 'recover'
  | 'skip-active';

export type WorkerPhase =
  | 'ready' // has no run yet
  | 'selected' // naive / compare-and-set: read a candidate, has not claimed it
  | 'in-transaction' // atomic claim done, transaction open: the row lock is held
  | 'blocked' // its statement waits for another transaction's row lock
  | 'aborted' // REPEATABLE READ / SERIALIZABLE: its claim's transaction failed (40001); it rolls back, then tries again
  | 'owner' // believes it owns a run
  | 'done'
  | 'no-work'
  | 'lost-lease'
  | 'cancelled'
  | 'gave-up'
  | 'crashed';

export const FINISHED_PHASES: readonly WorkerPhase[] = ['done', 'no-work', 'lost-lease', 'cancelled', 'gave-up', 'crashed'];

export interface WorkerState {
  id: WorkerId;
  phase: WorkerPhase;
  paused: boolean;
  /** The run it believes it owns or is claiming. */
  runId: number | null;
  /** The lease generation its claim returned: its fencing token. */
  generation: number | null;
  leaseExpiresAtSeconds: number | null;
  lastHeartbeatSeconds: number | null;
  /** Model calls whose results were written (progress it made). */
  workDone: number;
  /** Model calls paid for, written or not. */
  callsPaid: number;
  costPaidCents: number;
  claimAttempts: number;
  /** It has read cancel_requested = true and will stop at its next step. */
  cancelSeen: boolean;
  blockedOn: WorkerId[];
  /** Its wait is for an advisory lock (check --db plays pg_advisory_lock), not a row's lock; absent otherwise. */
  blockedOnAdvisory?: true;
  /** The action that is waiting, when blocked. */
  waitingAction: WorkerAction | 'cancel-request' | null;
  /**
   * Which life of the process named `id` this is, after a restart (2 for the first restart); absent in its
   * first life. Part of the state: a run its last life claimed still names the same owner.
   */
  life?: number;
  /** The name it claims under, when its scenario gives one (WorkerSpec.name); absent, its letter. */
  name?: string;
  /**
   * It owns its run by the claim's open transaction, held for the whole job (ClaimShape holdForJob): the
   * transaction ends with its completion, or rolls back when it crashes. Absent otherwise.
   */
  holding?: true;
}

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;

/** One row of `runs`, as every adapter returns it (timestamps as ISO strings). */
export interface RunRow {
  run_id: number;
  tenant: string;
  status: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  lease_generation: number;
  heartbeat_at: string | null;
  cancel_requested: boolean;
  created_at: string;
  progress: number;
  cost_cents: number;
  result: string | null;
}

/** `advisory` on a blocked outcome: the wait is for an advisory lock (check --db), not a row's lock. */
export type StatementOutcome =
  | { status: 'ok'; rows: Row[]; rowCount: number }
  | { status: 'error'; code: string; message: string }
  | { status: 'blocked'; holders: WorkerId[]; lockEvidence?: LockEvidenceRow[]; advisory?: true };

/**
 * Live mode only: a row of the real server's pg_locks behind a wait, as the server reported it the moment
 * the lab saw the wait. The waiter's own rows have granted = false; the holders' rows have granted = true.
 */
export interface LockEvidenceRow {
  /** The lab's session (A, B, OP), or the backend's application_name when it is not one of the lab's. */
  session: string;
  pid: number;
  locktype: string;
  relation: string | null;
  page: number | null;
  tuple: number | null;
  transactionid: string | null;
  mode: string;
  granted: boolean;
}

/** A write by a worker whose claim was superseded. */
export interface StaleWrite {
  heldGeneration: number;
  runGeneration: number;
  runOwner: string | null;
}

/** How a step reads on the timeline. */
export type Verdict = 'ok' | 'empty' | 'rejected' | 'error' | 'blocked' | 'event';

export type Actor = WorkerId | 'clock' | 'operator' | 'rescuer';

/** What a step is: a worker's action, or an event of the clock, a fault, the operator, or a queue's rescuer. */
type TraceAction =
  | WorkerAction
  | 'advance'
  | 'pause'
  | 'resume'
  | 'crash'
  | 'restart'
  | 'cancel-request'
  | 'kill'
  | 'rescue-fetch'
  | 'rescue'
  | 'rescue-idle'
  | 'rescue-stalled';

export interface TraceStep {
  index: number;
  /** The schedule token that caused this step, and its position in the schedule. */
  token: string;
  tokenIndex: number;
  actor: Actor;
  action: TraceAction;
  /** The statement's id and the exact text that ran (a strategy's statement may be one the learner typed). */
  sqlId: string | null;
  sql: string | null;
  params: Value[];
  outcome: StatementOutcome | null;
  verdict: Verdict;
  /** The run this step is about, if any. */
  runId: number | null;
  clockSeconds: number;
  /** What happened, as data: what chapters, questions and tests read (sim/narration.ts). */
  facts: StepFact[];
  /** What happened, in plain words: narrate(facts). */
  note: string;
  /** How the engine made PGlite do it, when that differs from sending the SQL as is: as data, and in words. */
  engineFact: EngineFact | null;
  engineNote: string | null;
  /** True when this step is the resumption of a statement that had been waiting. */
  resumed: boolean;
  /** Set when a worker wrote with a generation the run had moved past: the fencing question. */
  staleWrite: StaleWrite | null;
  workers: WorkerState[];
  runs: RunRow[];
  /** Open transactions after the step and the runs whose rows they lock. */
  locks: LockHolding[];
  /** Every anomaly known after this step, raised here or earlier (sim/anomalies.ts): read, never re-detected. */
  anomalies: Anomaly[];
}

/** An open transaction and the runs it has locked (on PGlite: a parked, prepared transaction). */
export interface LockHolding {
  session: string;
  runIds: number[];
}

const ANOMALY_KINDS = [
  'double-claim',
  'duplicate-execution',
  'split-ownership',
  'stale-write-rejected',
  'finalized-twice',
  'lost-cancel',
  'stuck-while-heartbeating',
  'stranded-run',
  'tenant-over-cap',
] as const;

export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/**
 * What an outcome (an explorer's group, a check's finding, `check --fail-on`) names: the anomaly kinds, with
 * a duplicate execution after a lease ran out (an anomaly marked `leaseRanOut`) apart from one under live leases.
 */
export const OUTCOME_KINDS = [...ANOMALY_KINDS, 'duplicate-after-expiry'] as const;

export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export interface Anomaly {
  kind: AnomalyKind;
  runId: number;
  workers: WorkerId[];
  /** Trace step indexes that show it (the conflicting steps). */
  steps: number[];
  /** The step at which the checkers first raised it (a later step may add to it, never move this). */
  raisedAt: number;
  message: string;
  /**
   * On a duplicate execution only: every pair of workers that executed the run at once had one whose lease
   * had run out (the at-least-once any lease gives), none two live leases. See sim/anomalies.ts.
   */
  leaseRanOut?: true;
}

export interface Trace {
  scenario: string;
  settings: Settings;
  /** The schedule as applied, token by token. */
  schedule: string[];
  steps: TraceStep[];
  anomalies: Anomaly[];
  finalRuns: RunRow[];
  database: 'pglite' | 'postgres';
}
