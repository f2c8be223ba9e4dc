/**
 * Pure read-outs of the lab's state for the panels: the step shown, what changed in `runs`, how values,
 * results and worker states read in plain words. Components call these and render; nothing here mutates.
 */
import { anomaliesAfter, byFirstStep } from '../sim/anomalies';
import { clockLabel, isClockTime, leaseRunsOutAt, secondsOf } from '../sim/clock';
import {
  type Anomaly,
  type LockHolding,
  OPERATOR_SESSION,
  type Row,
  type RunRow,
  type StatementOutcome,
  type TraceStep,
  type Value,
  type WorkerState,
} from '../sim/types';
import { isFinished, lifeOf, ownerToKill, whyCannotMove } from '../sim/simulated-worker';

/** The state after `index` steps: runs, workers, locks and clock (index 0 is the seeded start). */
export interface Snapshot {
  runs: RunRow[];
  workers: WorkerState[];
  locks: LockHolding[];
  clockSeconds: number;
}

export function snapshotAfter(steps: readonly TraceStep[], count: number, initialRuns: RunRow[], initialWorkers: WorkerState[]): Snapshot {
  const step = count > 0 ? steps[Math.min(count, steps.length) - 1] : undefined;
  if (!step) return { runs: initialRuns, workers: initialWorkers, locks: [], clockSeconds: 0 };
  return { runs: step.runs, workers: step.workers, locks: step.locks, clockSeconds: step.clockSeconds };
}

/** The step the side panel explains: the one picked on the timeline, or else the last one revealed. */
export function shownStepIndex(position: number, selected: number | null): number | null {
  if (selected !== null && selected >= 0 && selected < position) return selected;
  return position > 0 ? position - 1 : null;
}

/** The columns of `runs` that hold a time, in the table and in a statement's RETURNING rows. */
const TIME_COLUMNS = ['lease_expires_at', 'heartbeat_at', 'created_at'] as const;

/** A time as PostgreSQL writes it: the drivers hand its infinities over as JavaScript's. */
function timeText(value: unknown): string {
  if (value === Number.POSITIVE_INFINITY) return 'infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-infinity';
  return String(value);
}

function showable(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && isClockTime(value));
}

/**
 * The first time in these steps that the lab's clock cannot show (PostgreSQL's 'infinity', or a year
 * JavaScript cannot hold), as "run 123's lease_expires_at is infinity"; null when every one can be drawn.
 */
export function unshowableTime(steps: readonly TraceStep[]): string | null {
  for (const step of steps) {
    const rows: readonly (RunRow | Row)[] = [...step.runs, ...(step.outcome?.status === 'ok' ? step.outcome.rows : [])];
    for (const row of rows) {
      const cell = (name: string): unknown => (row as unknown as Record<string, unknown>)[name];
      const column = TIME_COLUMNS.find((name) => !showable(cell(name)));
      if (column) return `run ${String(cell('run_id') ?? '?')}'s ${column} is ${timeText(cell(column))}`;
    }
    for (const worker of step.workers) {
      for (const seconds of [worker.leaseExpiresAtSeconds, worker.lastHeartbeatSeconds]) {
        if (seconds !== null && !Number.isFinite(seconds)) return `worker ${worker.id}'s lease has no time the clock can show`;
      }
    }
  }
  return null;
}

/** Cells of `runs` that differ from the previous state, as "runId:column"; new rows count whole. */
export function changedCells(before: readonly RunRow[], after: readonly RunRow[]): Set<string> {
  const changed = new Set<string>();
  for (const row of after) {
    const old = before.find((r) => r.run_id === row.run_id);
    for (const column of Object.keys(row) as (keyof RunRow)[]) {
      if (!old || old[column] !== row[column]) changed.add(`${row.run_id}:${column}`);
    }
  }
  return changed;
}

/** A SQL value as psql would print it in a parameter list. */
function formatValue(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  return String(value);
}

export function formatParams(params: readonly Value[]): string[] {
  return params.map((value, i) => `$${i + 1} = ${formatValue(value)}`);
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A cell of a result or of `runs`: timestamps on the lab's clock, the rest as they are. */
export function formatCell(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string' && TIMESTAMP.test(value)) {
    const seconds = secondsOf(value);
    return seconds === null ? value : clockLabel(seconds);
  }
  return String(value);
}

export type ResultView =
  | { kind: 'rows'; summary: string; columns: string[]; rows: Value[][] }
  | { kind: 'error'; summary: string }
  | { kind: 'blocked'; summary: string }
  | { kind: 'none'; summary: string };

/** Statements that answer with rows: a query, or a write with RETURNING. COMMIT and friends do not. */
function returnsRows(sql: string | null): boolean {
  return sql === null || /\bRETURNING\b/i.test(sql) || /^\s*(SELECT|WITH)\b/i.test(sql);
}

export function describeResult(outcome: StatementOutcome | null, sql: string | null = null): ResultView {
  if (outcome === null) return { kind: 'none', summary: 'No statement: this step is an event.' };
  if (outcome.status === 'blocked') {
    const on = outcome.holders.length > 0 ? outcome.holders.join(' and ') : 'another transaction';
    return { kind: 'blocked', summary: `Blocked, waiting for ${on}.` };
  }
  if (outcome.status === 'error') return { kind: 'error', summary: `ERROR ${outcome.code}: ${outcome.message}` };
  const columns = [...new Set(outcome.rows.flatMap((row) => Object.keys(row)))];
  const rows = outcome.rows.map((row) => columns.map((c) => row[c] ?? null));
  if (outcome.rowCount === 0 && !returnsRows(sql)) return { kind: 'none', summary: `OK: ${sql?.trim().split(/\s+/)[0]?.toUpperCase() ?? 'done'} succeeded.` };
  const summary = outcome.rowCount === 0 ? '0 rows: the statement matched nothing.' : `${outcome.rowCount} row${outcome.rowCount === 1 ? '' : 's'}`;
  return { kind: 'rows', summary, columns, rows };
}

export function describeLock(lock: LockHolding): string {
  const who = lock.session === OPERATOR_SESSION ? 'The operator' : lock.session;
  const runs = lock.runIds.length === 1 ? `run ${lock.runIds[0]}` : `runs ${lock.runIds.join(', ')}`;
  return `${who}'s open transaction holds the row lock on ${runs}.`;
}

export interface WorkerCard {
  id: string;
  phase: string;
  paused: boolean;
  runId: number | null;
  generation: number | null;
  /** Seconds of lease left on the lab's clock; negative once it has expired; null without a lease. */
  leaseLeftSeconds: number | null;
  workDone: number;
  callsPaid: number;
  costCents: number;
  /** Why it cannot take a step now, or null. */
  blockedReason: string | null;
  /** Which life of its name this is: 2 and on after a restart. */
  life: number;
  /** The name it claims under, when its scenario gives it one other than its letter. */
  name?: string;
}

/** Phases in which the worker's writes released its lease (completion and cancellation set lease_expires_at to NULL), or it never had one. */
const RELEASED: readonly WorkerState['phase'][] = ['done', 'cancelled', 'no-work'];

export function workerCard(worker: WorkerState, clockSeconds: number): WorkerCard {
  return {
    id: worker.id,
    phase: worker.phase,
    paused: worker.paused,
    runId: worker.runId,
    generation: worker.generation,
    leaseLeftSeconds: worker.leaseExpiresAtSeconds === null || RELEASED.includes(worker.phase) ? null : worker.leaseExpiresAtSeconds - clockSeconds,
    workDone: worker.workDone,
    callsPaid: worker.callsPaid,
    costCents: worker.costPaidCents,
    blockedReason: whyCannotMove(worker),
    life: lifeOf(worker),
    ...(worker.name === undefined ? {} : { name: worker.name }),
  };
}

export function formatCents(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Seconds to add to the clock to pass the next lease expiry of a running run, or null. */
export function secondsToNextExpiry(runs: readonly RunRow[], clockSeconds: number): number | null {
  const expiries = leaseRunsOutAt(runs).filter((at) => at > clockSeconds);
  return expiries.length > 0 ? Math.min(...expiries) - clockSeconds : null;
}

/** Workers that can take a step in this state (the engine's own rule). */
export function movableWorkers(workers: readonly WorkerState[]): string[] {
  return workers.filter((w) => whyCannotMove(w) === null).map((w) => w.id);
}

/** Anomalies the learner can already see: those known after the revealed steps, as the last of them carries them. */
function revealedAnomalies(steps: readonly TraceStep[], position: number): Anomaly[] {
  return anomaliesAfter(steps, position);
}

export interface TraceOutcome {
  /** The findings so far, in the order they began (a new one comes last); empty when nothing went wrong yet. */
  findings: string[];
  /** What the current step did, in plain words. */
  now: string;
}

/**
 * `end` says how the trace ends when the cursor is at its end: 'over' (nothing can happen), 'stalled'
 * (the script is done and no worker moves by itself), or null (more can happen).
 */
export function describeOutcome(steps: readonly TraceStep[], position: number, end: 'over' | 'stalled' | null): TraceOutcome {
  const findings = [...revealedAnomalies(steps, position)].sort(byFirstStep).map((a) => a.message);
  const current = position > 0 ? steps[position - 1] : undefined;
  let now = current ? current.note : 'Nothing has happened yet. Press Next step to play the scripted interleaving, or step a worker yourself.';
  if (end !== null && position >= steps.length && steps.length > 0) {
    const what = end === 'over' ? 'Nothing more can happen' : 'Nothing more happens unless you step a worker or move the clock';
    now += findings.length === 0 ? ` ${what}, and no anomaly appeared.` : ` ${what}.`;
  }
  return { findings, now };
}

export interface WorkerMoves {
  step: boolean;
  pause: boolean;
  resume: boolean;
  crash: boolean;
  /** A crashed worker can start again under its name. */
  restart: boolean;
  /** Why it cannot take a step, or null. */
  why: string | null;
}

/** Which of a worker's buttons can do something in this state (the engine's checks, less the pointless ones). */
export function workerMoves(worker: WorkerState | undefined): WorkerMoves {
  if (!worker) return { step: false, pause: false, resume: false, crash: false, restart: false, why: 'Postgres is starting' };
  const why = whyCannotMove(worker);
  const finished = isFinished(worker);
  return {
    step: why === null,
    pause: !worker.paused && !finished && worker.phase !== 'crashed',
    resume: worker.paused,
    crash: !finished && worker.phase !== 'crashed',
    restart: worker.phase === 'crashed',
    why,
  };
}

/** Runs an operator can act on: every run to cancel; to kill, those a live worker believes it owns (the engine's rule). */
export function operatorTargets(runs: readonly RunRow[], workers: readonly WorkerState[]): { cancel: number[]; kill: number[] } {
  const ids = runs.map((r) => r.run_id);
  return { cancel: ids, kill: ids.filter((id) => ownerToKill(workers, id) !== undefined) };
}
