/**
 * Checkers that read a finished trace and name what went wrong. They are separate from the engine:
 * they see only the recorded steps, as a learner would.
 */
import { CLAIM_ACTIONS, SELECT_THEN_UPDATE_ACTIONS } from '../strategies';
import type { Anomaly, TraceStep, WorkerId, WorkerState } from './types';

interface Belief {
  worker: WorkerId;
  runId: number;
  /** Step where the worker first took this run as its own (read it, or claimed it). */
  from: number;
  /** Last step at which it still believed so (inclusive). */
  to: number;
}

/** For every worker, the stretches of steps during which it believed a run was its own. */
export function beliefs(steps: readonly TraceStep[]): Belief[] {
  const open = new Map<WorkerId, Belief>();
  const done: Belief[] = [];
  for (const step of steps) {
    for (const worker of step.workers) {
      const current = open.get(worker.id);
      const believes = worker.runId !== null && ['selected', 'in-transaction', 'owner', 'blocked'].includes(worker.phase);
      if (current && (!believes || worker.runId !== current.runId)) {
        done.push(current);
        open.delete(worker.id);
      }
      if (believes && worker.runId !== null) {
        const still = open.get(worker.id);
        if (still) still.to = step.index;
        else open.set(worker.id, { worker: worker.id, runId: worker.runId, from: step.index, to: step.index });
      }
    }
  }
  return [...done, ...open.values()];
}

function paidWork(steps: readonly TraceStep[]): TraceStep[] {
  // A resumed step was paid for when it was first issued.
  return steps.filter((s) => s.action === 'work' && !s.resumed && s.runId !== null);
}

/** A worker that has claimed the run (not merely read it) and is not frozen: it is executing it. */
function executing(worker: WorkerState, runId: number): boolean {
  if (worker.runId !== runId || worker.paused) return false;
  return worker.phase === 'owner' || worker.phase === 'in-transaction' || (worker.phase === 'blocked' && worker.generation !== null);
}

/** "A", "A and B", "A, B and C". */
export function listWorkers(workers: readonly string[]): string {
  if (workers.length <= 1) return workers.join('');
  return `${workers.slice(0, -1).join(', ')} and ${workers.at(-1)}`;
}

/**
 * A run is executed twice when a worker pays for a model call on it while another worker, awake,
 * also holds a claim on it, and that other worker has paid for a model call on it too: both did the work.
 * A worker that redoes the work of a crashed or frozen one is a retry, not this.
 */
function duplicateExecution(steps: readonly TraceStep[]): Anomaly[] {
  const found = new Map<number, Anomaly>();
  const calls = paidWork(steps);
  /** Per run: pairs of workers who held a claim on it at once while one of them paid. */
  const overlaps = new Map<number, Set<string>>();
  for (const call of calls) {
    const runId = call.runId!;
    const pairs = overlaps.get(runId) ?? new Set<string>();
    overlaps.set(runId, pairs);
    const rivals = call.workers.filter((w) => w.id !== call.actor && executing(w, runId));
    for (const rival of rivals) pairs.add([call.actor, rival.id].sort().join('/'));
    const paidSoFar = calls.filter((c) => c.runId === runId && c.index <= call.index);
    const payers = new Set(paidSoFar.map((c) => c.actor));
    const workers = [...new Set([...pairs].flatMap((pair) => pair.split('/')))].filter((w) => payers.has(w as WorkerId)).sort() as WorkerId[];
    const both = [...pairs].some((pair) => pair.split('/').every((w) => payers.has(w as WorkerId)));
    if (!both) continue;
    const existing = found.get(runId);
    const message = `Run ${runId} was executed by ${workers.length === 2 ? 'both ' : ''}${listWorkers(workers)}: ${paidSoFar.length} model call${paidSoFar.length === 1 ? ' was' : 's were'} paid for one run.`;
    if (existing) {
      if (rivals.length > 0) existing.steps = [...new Set([...existing.steps, call.index])].sort((x, y) => x - y);
      existing.workers = workers;
      existing.message = message;
      continue;
    }
    // The steps are the model calls that make it a duplicate, not the reads before them: the anomaly is
    // raised at the second worker's call, and an anomaly raised earlier must keep its place before it.
    const paidBefore = paidSoFar.filter((c) => workers.includes(c.actor as WorkerId)).map((c) => c.index);
    found.set(runId, {
      kind: 'duplicate-execution',
      runId,
      workers,
      steps: [...new Set(paidBefore)].sort((x, y) => x - y),
      message,
    });
  }
  return [...found.values()];
}

/** The step at which the run reached the generation that made a write stale. */
function supersedingClaim(steps: readonly TraceStep[], before: number, runId: number, generation: number): number | null {
  for (let i = before - 1; i >= 0; i--) {
    const step = steps[i]!;
    const owner = step.workers.find((w) => w.runId === runId && w.generation === generation);
    if (owner && step.actor === owner.id && CLAIM_ACTIONS.includes(step.action)) return step.index;
  }
  return null;
}

function staleWrites(steps: readonly TraceStep[]): Anomaly[] {
  const out: Anomaly[] = [];
  for (const step of steps) {
    const stale = step.staleWrite;
    if (!stale || step.runId === null) continue;
    if (step.verdict !== 'ok' && step.verdict !== 'rejected') continue;
    const claim = supersedingClaim(steps, step.index, step.runId, stale.runGeneration);
    const rival = stale.runOwner ?? '?';
    const committed = step.verdict === 'ok';
    const kind = committed ? 'split-ownership' : 'stale-write-rejected';
    const earlier = out.find((a) => a.kind === kind && a.runId === step.runId && a.workers.includes(step.actor));
    if (earlier) {
      earlier.steps = [...earlier.steps, step.index];
      continue;
    }
    out.push({
      kind,
      runId: step.runId,
      workers: [step.actor, rival].filter((w, i, all) => all.indexOf(w) === i).sort(),
      steps: claim === null ? [step.index] : [claim, step.index],
      message: committed
        ? `${step.actor}'s write to run ${step.runId} committed with stale generation ${stale.heldGeneration} while ${rival} held generation ${stale.runGeneration}: split ownership.`
        : `${step.actor}'s write was rejected: it holds generation ${stale.heldGeneration}, the run is at ${stale.runGeneration}.`,
    });
  }
  return out;
}

function lostCancels(steps: readonly TraceStep[]): Anomaly[] {
  const out: Anomaly[] = [];
  const stretches = beliefs(steps);
  for (const cancel of steps) {
    if ((cancel.action !== 'cancel-request' && cancel.action !== 'kill') || cancel.runId === null) continue;
    if (cancel.action === 'cancel-request' && cancel.verdict !== 'ok') continue;
    const runId = cancel.runId;
    const later = steps.slice(cancel.index + 1);
    const completed = later.find((s) => s.runId === runId && s.action === 'complete' && s.verdict === 'ok');
    const carriedOn = later.find(
      (s) =>
        s.action === 'work' &&
        s.runId === runId &&
        stretches.some((b) => b.worker === s.actor && b.runId === runId && b.from > cancel.index && b.from <= s.index),
    );
    const culprit = completed ?? carriedOn;
    if (!culprit) continue;
    out.push({
      kind: 'lost-cancel',
      runId,
      workers: [culprit.actor],
      steps: [cancel.index, culprit.index],
      message:
        cancel.action === 'kill'
          ? `The operator killed run ${runId}'s worker at step ${cancel.index + 1} to stop the run, but nothing recorded that it should stop: ${culprit.actor} ${completed ? 'completed it' : 'picked it up and carried on'}.`
          : completed
            ? `Run ${runId} was cancelled at step ${cancel.index + 1}, yet ${culprit.actor} completed it.`
            : `Run ${runId} was cancelled at step ${cancel.index + 1}, yet ${culprit.actor} picked it up and carried on.`,
    });
  }
  return out;
}

/** Three or more heartbeats in a row on one run with no progress between them. */
export const STUCK_HEARTBEATS = 3;

function stuckWorkers(steps: readonly TraceStep[]): Anomaly[] {
  const out: Anomaly[] = [];
  const streaks = new Map<string, number[]>();
  const reported = new Set<string>();
  for (const step of steps) {
    if (step.runId === null || step.actor === 'clock' || step.actor === 'operator') continue;
    const key = `${step.actor}/${step.runId}`;
    if (step.action === 'heartbeat' && step.verdict === 'ok') {
      const streak = [...(streaks.get(key) ?? []), step.index];
      streaks.set(key, streak);
      if (streak.length >= STUCK_HEARTBEATS && !reported.has(key)) {
        reported.add(key);
        out.push({
          kind: 'stuck-while-heartbeating',
          runId: step.runId,
          workers: [step.actor],
          steps: streak,
          message: `${step.actor} renewed its lease on run ${step.runId} ${streak.length} times without making progress: alive, but stuck.`,
        });
      } else if (reported.has(key)) {
        const anomaly = out.find((a) => a.kind === 'stuck-while-heartbeating' && a.runId === step.runId && a.workers[0] === step.actor);
        if (anomaly) anomaly.steps = streak;
      }
    } else if (step.action === 'work' && step.verdict === 'ok') {
      streaks.delete(key);
    }
  }
  return out;
}

/**
 * A run left 'running' under a worker that crashed (or was killed), when the claim in use reads only
 * pending runs (the select-then-update claims begin with a SELECT of pending runs): no one will ever
 * reclaim it. The atomic claims also take runs whose lease has expired, so there it is an orphan waiting.
 */
function strandedRuns(steps: readonly TraceStep[]): Anomaly[] {
  if (!steps.some((s) => s.action === 'select')) return [];
  const last = steps.at(-1);
  if (!last) return [];
  const out: Anomaly[] = [];
  for (const run of last.runs) {
    if (run.status !== 'running' || run.lease_owner === null) continue;
    const owner = last.workers.find((w) => w.id === run.lease_owner);
    if (owner?.phase !== 'crashed') continue;
    const end = steps.findLast((s) => (s.action === 'crash' && s.actor === owner.id) || (s.action === 'kill' && s.runId === run.run_id));
    if (!end) continue;
    const claim = steps.findLast((s) => s.index < end.index && s.actor === owner.id && s.runId === run.run_id && SELECT_THEN_UPDATE_ACTIONS.includes(s.action) && s.verdict === 'ok');
    out.push({
      kind: 'stranded-run',
      runId: run.run_id,
      workers: [owner.id],
      steps: claim ? [claim.index, end.index] : [end.index],
      message: `Run ${run.run_id} is still running under ${end.action === 'kill' ? 'killed' : 'crashed'} worker ${owner.id}; nothing will reclaim it: the claim's SELECT reads only pending runs.`,
    });
  }
  return out;
}

/**
 * Orders anomalies by the step where each began (then kind and run): an order that later steps never
 * change, for lists and rows a learner watches grow. (detectAnomalies orders by the latest step.)
 */
export function byFirstStep(a: Anomaly, b: Anomaly): number {
  return Math.min(...a.steps) - Math.min(...b.steps) || a.kind.localeCompare(b.kind) || a.runId - b.runId;
}

export function detectAnomalies(steps: readonly TraceStep[]): Anomaly[] {
  return [...duplicateExecution(steps), ...staleWrites(steps), ...lostCancels(steps), ...stuckWorkers(steps), ...strandedRuns(steps)].sort(
    (a, b) => (a.steps.at(-1) ?? 0) - (b.steps.at(-1) ?? 0),
  );
}
