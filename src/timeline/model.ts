/**
 * What the timeline derives from a trace before it knows any pixel: where each step sits along x (in
 * slot units), each worker's leases and how they went stale, pause and lock-wait spans, crashes, and
 * the anomalies visible after the first `position` steps. Pure and deterministic; the geometry lives
 * in layout.ts.
 */
import { findScenario } from '../scenarios';
import { anomaliesAfter } from '../sim/anomalies';
import { secondsOf } from '../sim/clock';
import type { Actor, Anomaly, RunRow, Trace, TraceStep, WorkerId, WorkerState } from '../sim/types';
import { believesItOwns, nameOf } from '../sim/simulated-worker';

/** Extra room, in slots, where the virtual clock moves between two steps: the visible gap. */
export const CLOCK_GAP_SLOTS = 0.6;

/**
 * How x is laid out. steps: one slot per step, a fixed gap where the clock moves (an instant and a minute
 * look alike). time: one slot per step too, and the clock's moves drawn in proportion to the seconds
 * they take (TIME_SLOTS_PER_SECOND), so a 60 s lease is long and an instant short.
 */
export type TimelineAxis = 'steps' | 'time';

/** On the time axis: a 60 s lease spans 9 slots, nine steps' worth. */
export const TIME_SLOTS_PER_SECOND = 0.15;

/**
 * On the step axis, a lease's time still to come (after the last revealed step) is drawn at this rate,
 * and never longer than AHEAD_MAX_SLOTS: that axis does not stand for time, so the part of a bar ahead of
 * the present only says "it lasts a while yet, and a renewal pushed it on".
 */
const STEP_AXIS_AHEAD_SLOTS_PER_SECOND = 1 / 20;
const AHEAD_MAX_SLOTS = 3;

/** Where the present ends: the latest revealed step's slot and a little room after it. */
export const PRESENT_EDGE_SLOTS = 0.45;

/** The clock moved between step `step - 1` and `step`. */
export interface ClockBreak {
  step: number;
  /** Slot coordinate of the gap's middle. */
  u: number;
  fromSeconds: number;
  toSeconds: number;
}

/**
 * valid: believed and held. expired / superseded: still believed, but the clock passed its expiry, or a
 * later claim moved the run on. orphan / orphan-expired: its worker's process is gone (crashed, or restarted as a new life) and the row still holds it.
 * rolled-back: the worker crashed before committing its claim, so the claim never happened (the whole
 * bar, once the crash is shown).
 */
export type LeaseState = 'valid' | 'expired' | 'superseded' | 'orphan' | 'orphan-expired' | 'rolled-back';

/** A stretch of a lease bar in one state, from slot coordinate `u` until the next change. */
interface LeaseChange {
  u: number;
  /** The step from which this state holds (for clipping to the revealed steps). */
  step: number;
  state: LeaseState;
  /** expired / orphan states: the lease_expires_at (seconds); superseded: the run's new generation. */
  detail: number | null;
}

/** One worker's belief that it owns one run with one generation (its fencing token). */
interface LeaseModel {
  worker: WorkerId;
  runId: number;
  generation: number;
  /** The step whose claim returned the run. */
  start: number;
  /**
   * The lease_expires_at the row held for this lease, from each step on: the claim's first, then each
   * heartbeat that moved it later (a renewal); null once the row holds none for it (another worker's
   * unfenced write finished the run: status done, lease_expires_at NULL). Empty when the claim never
   * reached the row.
   */
  expiresAt: { step: number; seconds: number | null }[];
  /**
   * The step at which the bar ends: the worker stopped believing in it (a completion, a rejected write), or,
   * after a crash, the row stopped holding it (reclaimed or finished). Null while it lasts.
   */
  end: number | null;
  changes: LeaseChange[];
}

/** A pause (pause → resume) or a statement waiting for a row lock (blocked → resumed). */
interface SpanModel {
  /** hung: a stuck worker's model call, from its claim on: it never returns, while heartbeats keep the lease. */
  kind: 'pause' | 'blocked' | 'hung';
  lane: Actor;
  start: number;
  /** The step that ended it, or null while it lasts. */
  end: number | null;
  /** Blocked: whose locks it waits for. */
  holders: string[];
}

/** A crashed worker starting again under its name: a new life line on its lane. */
interface RestartModel {
  worker: WorkerId;
  step: number;
}

interface CrashModel {
  worker: WorkerId;
  step: number;
  /** Killed by the operator rather than crashing by itself. */
  killed: boolean;
}

export interface TraceModel {
  axis: TimelineAxis;
  /**
   * Slot coordinate of every step: step i sits at i plus, per clock break before it, CLOCK_GAP_SLOTS
   * (step axis) or the break's seconds times TIME_SLOTS_PER_SECOND (time axis).
   */
  u: number[];
  /** The virtual clock after every step (seconds). */
  seconds: number[];
  /** The furthest any lease bar reaches ahead of the present, in slot coordinates (so the domain holds it). */
  reach: number;
  workers: WorkerId[];
  /** The trace has a queue's rescuer as its own process (its scenario's, or steps of it): it gets its own lane. */
  rescuer: boolean;
  breaks: ClockBreak[];
  leases: LeaseModel[];
  spans: SpanModel[];
  crashes: CrashModel[];
  restarts: RestartModel[];
  /**
   * Rows the anomaly band keeps for this trace, whatever the position, so the height stays put while
   * stepping; at least one, where "no anomaly so far" is said.
   */
  anomalyRows: number;
}

/** Rows the anomaly band may use; further anomalies share the last rows. */
const MAX_ANOMALY_ROWS = 4;

const modelCache: Record<TimelineAxis, WeakMap<Trace, TraceModel>> = { steps: new WeakMap(), time: new WeakMap() };

/** The model of a whole trace on one axis; memoised on the trace object, which is never mutated once recorded. */
export function traceModel(trace: Trace, axis: TimelineAxis = 'steps'): TraceModel {
  const cached = modelCache[axis].get(trace);
  if (cached) return cached;
  const model = buildModel(trace, axis);
  modelCache[axis].set(trace, model);
  return model;
}

function buildModel(trace: Trace, axis: TimelineAxis): TraceModel {
  const steps = trace.steps;
  const u: number[] = [];
  const breaks: ClockBreak[] = [];
  for (const step of steps) {
    const previous = steps[step.index - 1];
    if (!previous) {
      u.push(0);
      continue;
    }
    const moved = step.clockSeconds - previous.clockSeconds;
    const gap = moved === 0 ? 0 : axis === 'time' ? Math.abs(moved) * TIME_SLOTS_PER_SECOND : CLOCK_GAP_SLOTS;
    const here = u[step.index - 1]! + 1 + gap;
    u.push(here);
    if (moved !== 0) breaks.push({ step: step.index, u: here - (1 + gap) / 2, fromSeconds: previous.clockSeconds, toSeconds: step.clockSeconds });
  }
  const seconds = steps.map((step) => step.clockSeconds);
  const built = leases(steps, u, breaks, axis);
  const partial = { axis, u, seconds };
  // Each expiry as far ahead as it is drawn at the step that set it, before later steps are revealed.
  const reach = Math.max(
    0,
    ...built.flatMap((lease) => lease.expiresAt.flatMap((e) => (e.seconds === null ? [] : [uAtSeconds(partial, e.seconds, e.step + 1)]))),
  );
  return {
    axis,
    u,
    seconds,
    reach,
    workers: workerIds(trace),
    rescuer: findScenario(trace.scenario)?.rescuer !== undefined || trace.steps.some((step) => step.actor === 'rescuer'),
    breaks,
    leases: built,
    spans: [...pauses(steps), ...waits(steps), ...hungCalls(trace, built)].sort((a, b) => a.start - b.start),
    crashes: crashes(steps),
    restarts: steps.filter((step) => step.action === 'restart').map((step) => ({ worker: step.actor, step: step.index })),
    anomalyRows: Math.max(1, Math.min(MAX_ANOMALY_ROWS, trace.anomalies.length)),
  };
}

/**
 * Where a clock time sits along x, as far as the first `shown` steps tell: inside the revealed steps,
 * interpolated across the gap where the clock passed it (a time reached by a step sits at the first
 * such step); later than the last revealed step's clock, ahead of the present (proportionally on the time
 * axis, shortened on the step axis, which does not stand for time).
 */
export function uAtSeconds(model: { axis: TimelineAxis; u: readonly number[]; seconds: readonly number[] }, seconds: number, shown: number): number {
  const last = Math.min(shown, model.u.length) - 1;
  if (last < 0) return 0;
  for (let i = 0; i <= last; i++) {
    if (model.seconds[i]! < seconds) continue;
    if (i === 0) return model.u[0]!;
    const [t0, t1, u0, u1] = [model.seconds[i - 1]!, model.seconds[i]!, model.u[i - 1]!, model.u[i]!];
    return t1 === t0 ? u1 : u0 + ((u1 - u0) * (seconds - t0)) / (t1 - t0);
  }
  const ahead = seconds - model.seconds[last]!;
  const slots = model.axis === 'time' ? ahead * TIME_SLOTS_PER_SECOND : Math.min(AHEAD_MAX_SLOTS, ahead * STEP_AXIS_AHEAD_SLOTS_PER_SECOND);
  return model.u[last]! + PRESENT_EDGE_SLOTS + slots;
}

/**
 * A stuck worker (the scenario says so) never gets an answer from its model call: the call hangs from
 * its claim for as long as it believes it owns the run, while its heartbeats keep the lease alive.
 */
function hungCalls(trace: Trace, built: readonly LeaseModel[]): SpanModel[] {
  const stuck = new Set(
    findScenario(trace.scenario)
      ?.workers.filter((w) => w.stuck)
      .map((w) => w.id) ?? [],
  );
  return built
    .filter((lease) => stuck.has(lease.worker))
    .map((lease) => ({ kind: 'hung', lane: lease.worker, start: lease.start, end: lease.end, holders: [] }));
}

/** The scenario's workers (so their lanes are there before they act), and anyone else the steps show. */
function workerIds(trace: Trace): WorkerId[] {
  const steps = trace.steps;
  const ids = new Set<WorkerId>(findScenario(trace.scenario)?.workers.map((w) => w.id) ?? []);
  for (const worker of steps[0]?.workers ?? []) ids.add(worker.id);
  for (const step of steps) if (step.actor !== 'clock' && step.actor !== 'operator' && step.actor !== 'rescuer') ids.add(step.actor);
  return [...ids].sort();
}

function stateOf(step: TraceStep, id: WorkerId): WorkerState | undefined {
  return step.workers.find((w) => w.id === id);
}

/**
 * Leases, in the order they began. A lease goes stale while its worker still believes in it once the
 * clock passes its expiry, or once another claim has moved the run to a later generation. A worker that
 * crashes leaves its lease behind in the row: an orphan until the lease expires and someone reclaims it.
 */
function leases(steps: readonly TraceStep[], u: readonly number[], breaks: readonly ClockBreak[], axis: TimelineAxis): LeaseModel[] {
  type Open = LeaseModel & { expiry: number | null; last: LeaseState | null };
  const open = new Map<WorkerId, Open>();
  const orphans: Open[] = [];
  const out: Open[] = [];
  const breakBefore = new Map(breaks.map((b) => [b.step, b.u]));
  const change = (lease: Open, step: TraceStep, state: LeaseState, detail: number | null) => {
    if (state === lease.last) return;
    // Expiry happens while the clock moves, so it is drawn in the gap before the step (on the time axis, at
    // its moment in the gap); anything else happens at its step.
    const expiring = (state === 'expired' || state === 'orphan-expired') && lease.last !== null;
    const inGap =
      axis === 'time' && detail !== null
        ? uAtSeconds({ axis, u, seconds: steps.map((s) => s.clockSeconds) }, detail, step.index + 1)
        : breakBefore.get(step.index);
    lease.changes.push({ u: expiring ? (inGap ?? u[step.index]!) : u[step.index]!, step: step.index, state, detail });
    lease.last = state;
  };
  /** The run's committed row, when it still records this lease (an uncommitted claim is not in it yet). */
  const heldRow = (lease: Open, step: TraceStep) => {
    const row = step.runs.find((r) => r.run_id === lease.runId);
    const name = nameOf(step.workers.find((w) => w.id === lease.worker) ?? { id: lease.worker });
    return row && row.lease_generation === lease.generation && row.lease_owner === name ? row : undefined;
  };
  /** The row's lease_expires_at for this lease at this step: a new value is the claim's, or a renewal. */
  const noteExpiry = (lease: Open, step: TraceStep, row: RunRow) => {
    const seconds = row.status === 'running' ? secondsOf(row.lease_expires_at) : null;
    const recorded = lease.expiresAt.at(-1);
    if (recorded ? recorded.seconds === seconds : seconds === null) return;
    if (seconds !== null) lease.expiry = seconds;
    lease.expiresAt.push({ step: step.index, seconds });
  };
  const expired = (lease: Open, step: TraceStep) => lease.expiry !== null && step.clockSeconds > lease.expiry;

  for (const step of steps) {
    for (const lease of [...orphans]) {
      const row = heldRow(lease, step);
      if (!row || row.status !== 'running') {
        lease.end = step.index;
        orphans.splice(orphans.indexOf(lease), 1);
        continue;
      }
      noteExpiry(lease, step, row);
      change(lease, step, expired(lease, step) ? 'orphan-expired' : 'orphan', lease.expiry);
    }
    const ids = new Set([...open.keys(), ...step.workers.map((w) => w.id)]);
    for (const id of [...ids].sort()) {
      const worker = stateOf(step, id);
      const believes = worker !== undefined && believesItOwns(worker) && worker.generation !== null;
      const current = open.get(id);
      if (current && (!believes || worker.runId !== current.runId || worker.generation !== current.generation)) {
        open.delete(id);
        const row = heldRow(current, step);
        if (worker?.phase === 'crashed' && row && row.status === 'running') {
          orphans.push(current);
          change(current, step, expired(current, step) ? 'orphan-expired' : 'orphan', current.expiry);
        } else if (worker?.phase === 'crashed' && current.expiresAt.length === 0) {
          // The claim never reached a committed row: the crash rolled it back. From the crash on, the bar
          // reads as never held from its start (the change starts where the bar does).
          current.changes.push({ u: u[current.start]!, step: step.index, state: 'rolled-back', detail: null });
          current.end = step.index;
        } else {
          current.end = step.index;
        }
      }
      if (!believes || worker.runId === null || worker.generation === null) continue;
      let lease = open.get(id);
      if (!lease) {
        lease = {
          worker: id,
          runId: worker.runId,
          generation: worker.generation,
          start: step.index,
          end: null,
          changes: [],
          expiresAt: [],
          expiry: null,
          last: null,
        };
        open.set(id, lease);
        out.push(lease);
      }
      const row = step.runs.find((r) => r.run_id === lease.runId);
      const held = heldRow(lease, step);
      if (held) noteExpiry(lease, step, held);
      if (row && row.lease_generation > lease.generation) change(lease, step, 'superseded', row.lease_generation);
      else if (expired(lease, step)) change(lease, step, 'expired', lease.expiry);
      else change(lease, step, 'valid', null);
    }
  }
  return out.map(({ worker, runId, generation, start, end, changes, expiresAt }) => ({ worker, runId, generation, start, end, changes, expiresAt }));
}

function pauses(steps: readonly TraceStep[]): SpanModel[] {
  const out: SpanModel[] = [];
  const open = new Map<string, SpanModel>();
  for (const step of steps) {
    if (step.action === 'pause') {
      const span: SpanModel = { kind: 'pause', lane: step.actor, start: step.index, end: null, holders: [] };
      open.set(step.actor, span);
      out.push(span);
    } else if (step.action === 'resume' || step.action === 'crash') {
      const span = open.get(step.actor);
      if (span) span.end = step.index;
      open.delete(step.actor);
    }
  }
  return out;
}

/** From a statement that had to wait for a row lock to the step where it ran (resumed), or the waiter died. */
function waits(steps: readonly TraceStep[]): SpanModel[] {
  const out: SpanModel[] = [];
  for (const step of steps) {
    if (step.verdict !== 'blocked') continue;
    const holders = step.outcome?.status === 'blocked' ? step.outcome.holders : [];
    const span: SpanModel = { kind: 'blocked', lane: step.actor, start: step.index, end: null, holders };
    for (const later of steps.slice(step.index + 1)) {
      const resumed = later.actor === step.actor && later.resumed;
      const died = step.actor !== 'operator' && step.actor !== 'rescuer' && stateOf(later, step.actor)?.phase === 'crashed';
      if (resumed || died) {
        span.end = later.index;
        break;
      }
    }
    out.push(span);
  }
  return out;
}

function crashes(steps: readonly TraceStep[]): CrashModel[] {
  const out: CrashModel[] = [];
  for (const step of steps) {
    const previous = steps[step.index - 1];
    for (const worker of step.workers) {
      if (worker.phase !== 'crashed') continue;
      if (previous && stateOf(previous, worker.id)?.phase === 'crashed') continue;
      out.push({ worker: worker.id, step: step.index, killed: step.action === 'kill' });
    }
  }
  return out;
}

/**
 * The anomalies a learner can see after the first `position` steps: those the engine knew after that
 * step, so a duplicate execution appears when the second paid call happens, not when both workers have
 * merely read.
 */
export function anomaliesAt(trace: Trace, position: number): Anomaly[] {
  return position >= trace.steps.length ? trace.anomalies : anomaliesAfter(trace.steps, position);
}
