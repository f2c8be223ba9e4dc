/**
 * Checkers that name what went wrong, fed one recorded step at a time as the run goes. They are separate
 * from the engine's decisions: they see only the recorded steps, as a learner would. The engine records
 * the list they hold after each step on that step (`TraceStep.anomalies`), so every reader of a trace, a
 * prefix of it included, reads the anomalies instead of detecting them again.
 *
 * A step's list is never changed afterwards: an anomaly that grows (a third worker joins a double claim,
 * another heartbeat lengthens a streak) is replaced by a new object that keeps the step it was raised at.
 */
import { CLAIM_ACTIONS, SELECT_THEN_UPDATE_ACTIONS } from '../strategies';
import { durationLabel, secondsOf } from './clock';
import { describeWrite } from './narration';
import { believesItOwns, lifeOf, OWNER_WRITE_ACTIONS, ownerLifeEnded, workerNamed } from './simulated-worker';
import type { Anomaly, AnomalyKind, OutcomeKind, RunRow, TraceStep, WorkerAction, WorkerId, WorkerState } from './types';

/** What a checker sees of a step: all of it but the anomalies, which it is computing. */
export type RecordedStep = Omit<TraceStep, 'anomalies'>;

/** The anomalies known after the first `count` steps, read from the last of them. */
export function anomaliesAfter(steps: readonly TraceStep[], count: number): Anomaly[] {
  const shown = Math.max(0, Math.min(count, steps.length));
  return shown === 0 ? [] : steps[shown - 1]!.anomalies;
}

/** The name an outcome gives the anomaly: its kind, or `duplicate-after-expiry` for duplicate work after a lease ran out. */
export function outcomeKind(anomaly: Anomaly): OutcomeKind {
  return anomaly.kind === 'duplicate-execution' && anomaly.leaseRanOut ? 'duplicate-after-expiry' : anomaly.kind;
}

/** "A", "A and B", "A, B and C": the lab's one way to join a list in a sentence (workers, runs, steps). */
export function listWorkers(workers: readonly (string | number)[]): string {
  if (workers.length <= 1) return workers.join('');
  return `${workers.slice(0, -1).join(', ')} and ${workers.at(-1)}`;
}

/** "run 124", "runs 123 and 124". */
export function listRuns(runIds: readonly number[]): string {
  return `run${runIds.length === 1 ? '' : 's'} ${listWorkers(runIds)}`;
}

/** "step 4", "steps 2, 3 and 4": step indexes (from 0) named from 1, each once, in order. */
export function listSteps(indexes: readonly number[]): string {
  const numbers = sortedUnique(indexes).map((index) => index + 1);
  return `step${numbers.length === 1 ? '' : 's'} ${listWorkers(numbers)}`;
}

function sortedUnique(indexes: readonly number[]): number[] {
  return [...new Set(indexes)].sort((x, y) => x - y);
}

interface Checker {
  /** Takes in one step; `earlier` holds every step before it. */
  observe(step: RecordedStep, earlier: readonly TraceStep[]): void;
  /** Its anomalies after the last step observed, in its own order. */
  current(): Anomaly[];
  /**
   * What it remembers of the steps so far that can still change which anomalies (kind and run) it
   * raises later, beyond its anomalies so far and the latest step's workers and rows: no step indexes,
   * so two histories it would judge the same from here on give the same value (see AnomalyDetector.memory).
   */
  memory(): unknown;
}

/**
 * Two workers at once believe they own one run, each under a lease it thinks is still live: the claim
 * handed out a run whose lease had not expired. Raised at the step where the second one comes to believe
 * it. A worker whose lease has run out (a paused one, say) and that has not noticed is not counted: a
 * claim may take an expired lease, and whether the old owner's late writes do harm is fencing's question.
 */
class DoubleClaims implements Checker {
  /** For each worker that believes it owns a run: which, and the step its belief began. */
  private readonly since = new Map<WorkerId, { runId: number; from: number }>();
  private readonly found = new Map<number, Anomaly>();

  observe(step: RecordedStep): void {
    for (const worker of step.workers) {
      if (!believesItOwns(worker)) this.since.delete(worker.id);
      else if (this.since.get(worker.id)?.runId !== worker.runId) this.since.set(worker.id, { runId: worker.runId!, from: step.index });
    }
    const byRun = new Map<number, WorkerState[]>();
    for (const worker of step.workers) {
      if (!believesItOwns(worker) || !leaseLive(worker, step.clockSeconds)) continue;
      byRun.set(worker.runId!, [...(byRun.get(worker.runId!) ?? []), worker]);
    }
    for (const [runId, owners] of byRun) {
      if (owners.length < 2) continue;
      const earlier = this.found.get(runId);
      const workers = [...new Set([...(earlier?.workers ?? []), ...owners.map((w) => w.id)])].sort();
      if (earlier && workers.length === earlier.workers.length) continue;
      const froms = owners.map((w) => this.since.get(w.id)!.from);
      const newest = owners.find((w) => w.id === step.actor) ?? owners[froms.indexOf(Math.max(...froms))]!;
      const rivals = owners.filter((w) => w !== newest);
      // The step's own worker, whose belief began earlier, did not claim here: its write (a heartbeat taking
      // a lease that had run out) made its lease live again beside the other's.
      const renewed = newest.id === step.actor && this.since.get(newest.id)!.from !== step.index;
      const how = renewed ? `${newest.id} renewed its lease on it` : `${newest.id} claimed it`;
      this.found.set(runId, {
        kind: 'double-claim',
        runId,
        workers,
        steps: sortedUnique([...(earlier?.steps ?? []), ...froms]),
        raisedAt: earlier?.raisedAt ?? step.index,
        // The words name those who believe it now; `workers` keeps everyone who ever shared the claim.
        message: `Workers ${listWorkers(owners.map((w) => w.id).sort())} ${owners.length === 2 ? 'both' : 'all'} believe they own run ${runId}: ${how} while ${leaseWords(rivals, step.clockSeconds)}.`,
      });
    }
  }

  current(): Anomaly[] {
    return [...this.found.values()];
  }

  /** Who believes it owns what is on the latest step's workers; when each belief began only fills in the words. */
  memory(): unknown {
    return null;
  }
}

/**
 * Its lease, as the worker knows it, has time left. At the expiry instant itself the lease has 0 s left and
 * it is the claim's own statement that says whether it is over: `lease_expires_at < now()` (the lab's
 * claims) leaves it alone, `<= now()` takes it. Either reading is a choice of boundary, not a double claim,
 * so a lease counts as live only strictly before its expiry.
 */
function leaseLive(worker: WorkerState, clockSeconds: number): boolean {
  return worker.leaseExpiresAtSeconds === null || worker.leaseExpiresAtSeconds > clockSeconds;
}

function leaseWords(rivals: readonly WorkerState[], clockSeconds: number): string {
  const [only] = rivals;
  if (rivals.length === 1 && only?.leaseExpiresAtSeconds != null) {
    return `${only.id}'s lease on it still had ${only.leaseExpiresAtSeconds - clockSeconds} s to run`;
  }
  const who = listWorkers(rivals.map((w) => w.id));
  // A claim that sets no lease (DBOS's executor id, say) leaves nothing that could run out.
  if (rivals.every((w) => w.leaseExpiresAtSeconds == null)) return `${who} still held it, under a claim that sets no lease`;
  return `the leases of ${who} were still live`;
}

/** A worker that has claimed the run (not merely read it) and is not frozen: it is executing it. */
function executing(worker: WorkerState, runId: number): boolean {
  if (worker.runId !== runId || worker.paused) return false;
  return worker.phase === 'owner' || worker.phase === 'in-transaction' || (worker.phase === 'blocked' && worker.generation !== null);
}

/**
 * A run is executed twice when a worker pays for a model call on it while another worker, awake,
 * also holds a claim on it, and that other worker has paid for a model call on it too: both did the work.
 * A worker that redoes the work of a crashed or frozen one is a retry, not this; one that claimed the run
 * again after another worker had completed it, and pays for a call on it, has executed it a second time.
 *
 * When, at every call that paired two workers, one of them held a lease that had run out (a paused or
 * slow owner whose run was taken over, or that carried on after the takeover), the anomaly is marked
 * `leaseRanOut`: duplicate work after a lease expired, which any lease-based queue allows (at-least-once),
 * kept apart from two workers executing one run under live leases, which a correct claim never allows.
 */
class DuplicateExecutions implements Checker {
  /**
   * Per run: its paid model calls, the pairs of workers who held a claim on it at once while one of them
   * paid, those of the pairs seen with both leases live (or redoing a completed run), and the anomaly.
   */
  private readonly runs = new Map<
    number,
    { calls: { index: number; actor: WorkerId }[]; pairs: Set<string>; livePairs: Set<string>; anomaly: Anomaly | null }
  >();

  /** Per run: the worker whose completion of it was written, and at which step. */
  private readonly completed = new Map<number, { actor: WorkerId; index: number }>();
  /** Per worker and run ("B/123"): the step of its latest successful claim. */
  private readonly claimed = new Map<string, number>();

  observe(call: RecordedStep): void {
    if (call.runId !== null && call.verdict === 'ok' && call.action === 'complete') this.completed.set(call.runId, { actor: call.actor, index: call.index });
    if (call.runId !== null && call.verdict === 'ok' && CLAIM_ACTIONS.includes(call.action)) this.claimed.set(`${call.actor}/${call.runId}`, call.index);
    // A resumed step was paid for when it was first issued.
    if (call.action !== 'work' || call.resumed || call.runId === null) return;
    const runId = call.runId;
    const run = this.runs.get(runId) ?? { calls: [], pairs: new Set<string>(), livePairs: new Set<string>(), anomaly: null };
    this.runs.set(runId, run);
    run.calls.push({ index: call.index, actor: call.actor as WorkerId });
    const caller = call.workers.find((w) => w.id === call.actor);
    const rivals = call.workers.filter((w) => w.id !== call.actor && executing(w, runId));
    for (const rival of rivals) {
      const pair = [call.actor, rival.id].sort().join('/');
      run.pairs.add(pair);
      if (caller && leaseLive(caller, call.clockSeconds) && leaseLive(rival, call.clockSeconds)) run.livePairs.add(pair);
    }
    // A run that another worker had completed, handed out again by a claim after that completion (a
    // rescuer's write that put it back to pending, say), is executed a second time: not a retry, and no
    // lease running out excuses it.
    const completion = this.completed.get(runId);
    const redoes = completion && completion.actor !== call.actor && (this.claimed.get(`${call.actor}/${runId}`) ?? -1) > completion.index;
    if (redoes) {
      const pair = [call.actor, completion.actor].sort().join('/');
      run.pairs.add(pair);
      run.livePairs.add(pair);
    }
    const payers = new Set<string>(run.calls.map((c) => c.actor));
    const paidPairs = [...run.pairs].filter((pair) => pair.split('/').every((w) => payers.has(w)));
    if (paidPairs.length === 0) return;
    const workers = [...new Set(paidPairs.flatMap((pair) => pair.split('/')))].sort() as WorkerId[];
    const leaseRanOut = paidPairs.every((pair) => !run.livePairs.has(pair));
    const count = run.calls.length;
    const message = `Run ${runId} was executed by ${workers.length === 2 ? 'both ' : ''}${listWorkers(workers)}: ${count} model call${count === 1 ? ' was' : 's were'} paid for one run${leaseRanOut ? ', each time while one of them held a lease that had run out (at-least-once, which any lease allows)' : ''}.`;
    const earlier = run.anomaly;
    const steps = earlier
      ? rivals.length > 0
        ? sortedUnique([...earlier.steps, call.index])
        : earlier.steps
      : // The steps are the model calls that make it a duplicate, not the reads before them: the anomaly is
        // raised at the second worker's call, and an anomaly raised earlier must keep its place before it.
        sortedUnique(run.calls.filter((c) => workers.includes(c.actor)).map((c) => c.index));
    run.anomaly = {
      kind: 'duplicate-execution',
      runId,
      workers,
      steps,
      raisedAt: earlier?.raisedAt ?? call.index,
      message,
      ...(leaseRanOut ? { leaseRanOut: true as const } : {}),
    };
  }

  current(): Anomaly[] {
    return [...this.runs.values()].flatMap((run) => (run.anomaly ? [run.anomaly] : []));
  }

  /**
   * Per run not yet executed twice under live leases: who has paid for a call on it, who held a claim on it
   * at once while one of them paid, and which of those pairs had both leases live.
   */
  memory(): unknown {
    return [...this.runs.entries()]
      .filter(([, run]) => run.anomaly === null || run.anomaly.leaseRanOut)
      .sort(([a], [b]) => a - b)
      .map(([runId, run]) => [runId, [...new Set(run.calls.map((c) => c.actor))].sort(), [...run.pairs].sort(), [...run.livePairs].sort()]);
  }
}

/** The step at which the run reached the generation that made a write stale. */
function supersedingClaim(earlier: readonly TraceStep[], runId: number, generation: number): number | null {
  for (let i = earlier.length - 1; i >= 0; i--) {
    const step = earlier[i]!;
    const owner = step.workers.find((w) => w.runId === runId && w.generation === generation);
    if (owner && step.actor === owner.id && CLAIM_ACTIONS.includes(step.action)) return step.index;
  }
  return null;
}

/**
 * The worker a stale write's run belongs to now, by its letter: the row's owner is a worker's name, and
 * where workers share a name (or go by one other than their letter) the claim that superseded the write says
 * which of them it was.
 */
function rivalOf(runOwner: string | null, step: RecordedStep, earlier: readonly TraceStep[], claim: number | null): string {
  if (runOwner === null) return '?';
  if (step.workers.some((w) => w.id === runOwner)) return runOwner;
  const claimant = claim === null ? undefined : earlier.find((s) => s.index === claim)?.actor;
  return claimant ?? runOwner;
}

/**
 * A stale owner's write: one with a generation the run had moved past, committed (split ownership) or
 * rejected by the fence; or one that committed after another worker's claim of the run had committed,
 * whatever the generation says. A claim someone wrote may leave `lease_generation` where it was (or set it
 * to a constant), so the fence passes the old owner's write and the generation shows nothing stale: who owns
 * a run is judged here from the runs each worker's claim got back and when that claim committed.
 */
class StaleWrites implements Checker {
  private readonly found: Anomaly[] = [];
  /** Per worker: the run its latest claim got back and the claim's step, until the claim commits (the worker owns it). */
  private readonly claiming = new Map<WorkerId, { runId: number; at: number }>();
  /** Per run: each worker whose claim of it committed, with that claim's step, in the order the claims committed. */
  private readonly owners = new Map<number, { worker: WorkerId; claimedAt: number }[]>();

  observe(step: RecordedStep, earlier: readonly TraceStep[]): void {
    this.followOwnership(step);
    const stale = step.staleWrite;
    if (!stale) {
      this.observeOverwrite(step);
      return;
    }
    if (step.runId === null) return;
    if (step.verdict !== 'ok' && step.verdict !== 'rejected') return;
    const committed = step.verdict === 'ok';
    const kind: AnomalyKind = committed ? 'split-ownership' : 'stale-write-rejected';
    const same = this.found.findIndex((a) => a.kind === kind && a.runId === step.runId && a.workers.includes(step.actor as WorkerId));
    if (same >= 0) {
      const before = this.found[same]!;
      this.found[same] = { ...before, steps: [...before.steps, step.index] };
      return;
    }
    const claim = supersedingClaim(earlier, step.runId, stale.runGeneration);
    const rival = rivalOf(stale.runOwner, step, earlier, claim);
    this.found.push({
      kind,
      runId: step.runId,
      workers: [step.actor, rival].filter((w, i, all) => all.indexOf(w) === i).sort() as WorkerId[],
      steps: claim === null ? [step.index] : [claim, step.index],
      raisedAt: step.index,
      message: committed
        ? `${step.actor}'s write to run ${step.runId} committed with stale generation ${stale.heldGeneration} while ${rival} held generation ${stale.runGeneration}: split ownership.`
        : `${step.actor}'s write was rejected: it holds generation ${stale.heldGeneration}, the run is at ${stale.runGeneration}.`,
    });
  }

  /** A claim that got a run back, and the step at which its worker comes to own the run (the claim committed). */
  private followOwnership(step: RecordedStep): void {
    if (step.runId !== null && step.verdict === 'ok' && CLAIM_ACTIONS.includes(step.action)) {
      this.claiming.set(step.actor as WorkerId, { runId: step.runId, at: step.index });
    }
    for (const worker of step.workers) {
      const claim = this.claiming.get(worker.id);
      if (!claim || worker.phase !== 'owner' || worker.runId !== claim.runId) continue;
      this.claiming.delete(worker.id);
      const order = (this.owners.get(claim.runId) ?? []).filter((owner) => owner.worker !== worker.id);
      this.owners.set(claim.runId, [...order, { worker: worker.id, claimedAt: claim.at }]);
    }
  }

  /** An owner's write that committed although another worker's claim of the run committed after its own. */
  private observeOverwrite(step: RecordedStep): void {
    if (step.runId === null || step.verdict !== 'ok' || !OWNER_WRITE_ACTIONS.includes(step.action as WorkerAction)) return;
    const order = this.owners.get(step.runId) ?? [];
    const mine = order.findIndex((owner) => owner.worker === step.actor);
    const rival = order.at(-1);
    if (mine < 0 || !rival || rival.worker === step.actor) return;
    const same = this.found.findIndex((a) => a.kind === 'split-ownership' && a.runId === step.runId && a.workers.includes(step.actor as WorkerId));
    if (same >= 0) {
      const before = this.found[same]!;
      this.found[same] = { ...before, steps: [...before.steps, step.index] };
      return;
    }
    const generation = step.workers.find((worker) => worker.id === step.actor)?.generation;
    const unmoved =
      generation === null || generation === undefined
        ? 'left no generation to tell them apart'
        : `left the run at generation ${generation}, the one ${step.actor} holds`;
    this.found.push({
      kind: 'split-ownership',
      runId: step.runId,
      workers: [step.actor as WorkerId, rival.worker].sort(),
      steps: [rival.claimedAt, step.index],
      raisedAt: step.index,
      message: `${step.actor}'s ${describeWrite(step.action as WorkerAction)} of run ${step.runId} committed after ${rival.worker} had claimed it (step ${rival.claimedAt + 1}): split ownership. ${rival.worker}'s claim ${unmoved}, so no fence could tell the stale owner's writes from the new one's.`,
    });
  }

  current(): Anomaly[] {
    return [...this.found];
  }

  /** Each stale write is judged on its own step and on who owns each run, in the order their claims committed. */
  memory(): unknown {
    const claiming = [...this.claiming.entries()].map(([worker, claim]) => [worker, claim.runId]).sort();
    const owners = [...this.owners.entries()].sort(([a], [b]) => a - b).map(([runId, order]) => [runId, order.map((owner) => owner.worker)]);
    return [claiming, owners];
  }
}

/** The worker writes that finalize a run: they set its final status. */
const FINALIZING_ACTIONS: readonly string[] = ['complete', 'cancel-ack'];

/**
 * A worker's write finalized a run that had already been marked failed under it (Solid Queue #589: the
 * pruner failed a live worker's claim, and the worker's finish still landed, so the job ended both failed
 * and finished). In the lab only a queue's rescuer marks a run failed; a done run completed again is a
 * duplicate execution's business, not this one's.
 */
class FinalizedTwice implements Checker {
  private readonly found: Anomaly[] = [];

  observe(step: RecordedStep, earlier: readonly TraceStep[]): void {
    if (step.verdict !== 'ok' || step.runId === null || !FINALIZING_ACTIONS.includes(step.action)) return;
    const runId = step.runId;
    const statusAt = (at: TraceStep | undefined) => at?.runs.find((run) => run.run_id === runId)?.status;
    if (statusAt(earlier.at(-1)) !== 'failed') return;
    let failedAt = earlier.length - 1;
    while (failedAt > 0 && statusAt(earlier[failedAt - 1]) === 'failed') failedAt--;
    const failing = earlier[failedAt]!;
    const final = step.runs.find((run) => run.run_id === runId)?.status ?? '?';
    const who = failing.actor === 'rescuer' ? 'the rescuer' : failing.actor;
    const write = step.action === 'complete' ? 'completion' : 'cancel acknowledgement';
    this.found.push({
      kind: 'finalized-twice',
      runId,
      workers: [step.actor as WorkerId],
      steps: [failing.index, step.index],
      raisedAt: step.index,
      message: `Run ${runId} was finalized twice: ${who} marked it failed at step ${failing.index + 1}, then ${step.actor}'s ${write} marked it ${final} at step ${step.index + 1}, although ${step.actor}'s claim had ended.`,
    });
  }

  current(): Anomaly[] {
    return [...this.found];
  }

  /** Each finalizing write is judged on its own step and the rows before it. */
  memory(): unknown {
    return null;
  }
}

/** The phases in which a worker takes a run as its own: it has read it, or claimed it. */
const TAKEN_PHASES: readonly WorkerState['phase'][] = ['selected', 'in-transaction', 'owner', 'blocked'];

interface CancelWatch {
  step: RecordedStep;
  /** The first later step that completed the run, and the first later model call by a worker that took it after the cancel. */
  completed: RecordedStep | null;
  carriedOn: RecordedStep | null;
  anomaly: Anomaly | null;
}

/** A run that was cancelled (or whose worker was killed) and was completed or worked on anyway. */
class LostCancels implements Checker {
  /** The run each worker has taken as its own, and the steps where each such stretch of belief began. */
  private readonly taking = new Map<WorkerId, number>();
  private readonly stretchStarts = new Map<string, number[]>();
  private readonly cancels: CancelWatch[] = [];

  observe(step: RecordedStep): void {
    for (const worker of step.workers) {
      const takes = worker.runId !== null && TAKEN_PHASES.includes(worker.phase);
      if (!takes) this.taking.delete(worker.id);
      else if (this.taking.get(worker.id) !== worker.runId) {
        this.taking.set(worker.id, worker.runId!);
        const key = `${worker.id}/${worker.runId}`;
        this.stretchStarts.set(key, [...(this.stretchStarts.get(key) ?? []), step.index]);
      }
    }
    for (const watch of this.cancels) {
      if (step.runId !== watch.step.runId) continue;
      // A completion that finalized the run as cancelled (one guarded by the cancel request) kept the cancel.
      const endedCancelled = step.runs.find((run) => run.run_id === step.runId)?.status === 'cancelled';
      if (!watch.completed && step.action === 'complete' && step.verdict === 'ok' && !endedCancelled) watch.completed = step;
      const takenSince = (this.stretchStarts.get(`${step.actor}/${step.runId}`) ?? []).some((from) => from > watch.step.index && from <= step.index);
      if (!watch.carriedOn && step.action === 'work' && takenSince) watch.carriedOn = step;
    }
    if ((step.action === 'kill' || (step.action === 'cancel-request' && step.verdict === 'ok')) && step.runId !== null) {
      this.cancels.push({ step, completed: null, carriedOn: null, anomaly: null });
    }
    for (const watch of this.cancels) {
      // A completion found later names the cancel's loss better than the model call before it.
      const culprit = watch.completed ?? watch.carriedOn;
      if (!culprit || watch.anomaly?.steps[1] === culprit.index) continue;
      watch.anomaly = lostCancel(watch.step, culprit, watch.completed !== null, watch.anomaly?.raisedAt ?? step.index);
    }
  }

  current(): Anomaly[] {
    return this.cancels.flatMap((watch) => (watch.anomaly ? [watch.anomaly] : []));
  }

  /**
   * Each cancel not yet lost: its run, and the workers who have taken that run since (a model call by one
   * of them loses it). Who takes which run now is on the latest step's workers.
   */
  memory(): unknown {
    return this.cancels
      .filter((watch) => watch.anomaly === null)
      .map((watch) => {
        const runId = watch.step.runId!;
        const takers = [...this.stretchStarts.entries()]
          .filter(([key, starts]) => key.split('/')[1] === String(runId) && starts.some((from) => from > watch.step.index))
          .map(([key]) => key)
          .sort();
        return JSON.stringify([runId, takers]);
      })
      .sort();
  }
}

function lostCancel(cancel: RecordedStep, culprit: RecordedStep, completed: boolean, raisedAt: number): Anomaly {
  const runId = cancel.runId!;
  return {
    kind: 'lost-cancel',
    runId,
    workers: [culprit.actor as WorkerId],
    steps: [cancel.index, culprit.index],
    raisedAt,
    message:
      cancel.action === 'kill'
        ? `The operator killed run ${runId}'s worker at step ${cancel.index + 1} to stop the run, but nothing recorded that it should stop: ${culprit.actor} ${completed ? 'completed it' : 'picked it up and carried on'}.`
        : completed
          ? `Run ${runId} was cancelled at step ${cancel.index + 1}, yet ${culprit.actor} completed it.`
          : `Run ${runId} was cancelled at step ${cancel.index + 1}, yet ${culprit.actor} picked it up and carried on.`,
  };
}

/** Three or more heartbeats in a row on one run with no progress between them. */
const STUCK_HEARTBEATS = 3;

class StuckWorkers implements Checker {
  private readonly streaks = new Map<string, number[]>();
  private readonly found = new Map<string, Anomaly>();

  observe(step: RecordedStep): void {
    if (step.runId === null || step.actor === 'clock' || step.actor === 'operator') return;
    const key = `${step.actor}/${step.runId}`;
    if (step.action === 'work' && step.verdict === 'ok') this.streaks.delete(key);
    if (step.action !== 'heartbeat' || step.verdict !== 'ok') return;
    const streak = [...(this.streaks.get(key) ?? []), step.index];
    this.streaks.set(key, streak);
    const earlier = this.found.get(key);
    // Once raised it shows the latest streak of renewals, a shorter one after progress included.
    if (earlier) this.found.set(key, { ...earlier, steps: streak });
    else if (streak.length >= STUCK_HEARTBEATS) {
      this.found.set(key, {
        kind: 'stuck-while-heartbeating',
        runId: step.runId,
        workers: [step.actor],
        steps: streak,
        raisedAt: step.index,
        message: `${step.actor} renewed its lease on run ${step.runId} ${streak.length} times without making progress: alive, but stuck.`,
      });
    }
  }

  current(): Anomaly[] {
    return [...this.found.values()];
  }

  /** How long each streak not yet reported is. */
  memory(): unknown {
    return [...this.streaks.entries()]
      .filter(([key]) => !this.found.has(key))
      .map(([key, streak]) => [key, streak.length])
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
  }
}

/**
 * A run left 'running' under a worker that crashed (or was killed), when the claim in use reads only
 * pending runs (the select-then-update claims begin with a SELECT of pending runs, and a queue whose rescuer
 * is its own process claims pending runs only, so once that rescuer has stalled): no one will ever reclaim it. The atomic claims also take runs whose lease has expired, so there it is an orphan waiting.
 * Judged on the latest step's rows: it holds for as long as the run stays so (a cancel can end it).
 *
 * A claim someone wrote is not judged from its text: once its schedule is over, the engine asks the
 * database whether that claim, run by a worker that starts later, takes back the runs dead workers still
 * hold (Simulation.conclude), and `conclude` below raises the same anomaly for each run it would not take.
 */
class StrandedRuns implements Checker {
  private claimsSelect = false;
  private rescuerStalled = false;
  /** The last step each worker crashed at, the last step each run's worker was killed at. */
  private readonly crashes = new Map<string, RecordedStep>();
  private readonly kills = new Map<number, RecordedStep>();
  /** The steps at which each worker's select-then-update claim of each run succeeded. */
  private readonly claims = new Map<string, number[]>();
  private found: Anomaly[] = [];

  observe(step: RecordedStep): void {
    if (step.action === 'select') this.claimsSelect = true;
    // A queue whose rescuer is its own process claims pending runs only: with the rescuer stalled, nothing
    // takes a dead worker's run back either.
    if (step.action === 'rescue-stalled') this.rescuerStalled = true;
    if (step.action === 'crash') this.crashes.set(step.actor, step);
    if (step.action === 'kill' && step.runId !== null) this.kills.set(step.runId, step);
    if (step.runId !== null && step.verdict === 'ok' && SELECT_THEN_UPDATE_ACTIONS.includes(step.action)) {
      const key = `${step.actor}/${step.runId}`;
      this.claims.set(key, [...(this.claims.get(key) ?? []), step.index]);
    }
    if (!this.claimsSelect && !this.rescuerStalled) return;
    const because = this.claimsSelect
      ? "the claim's SELECT reads only pending runs"
      : 'the claim takes pending runs only, and the rescuer that would put it back to pending is stalled itself';
    this.found = this.strandedOn(step, because, () => true);
  }

  /**
   * The end of a complete schedule with a claim someone wrote: `probe` says which runs under dead workers that
   * claim did not take back when run later (see ReclaimProbe). Each of them is stranded.
   */
  conclude(probe: ReclaimProbe, last: RecordedStep): void {
    const later = durationLabel(probe.atSeconds - probe.expiredAtSeconds, 'long');
    const because = probe.afterReaper
      ? `your reaper, then the claim run by a new worker, ${later} after the lease expired with no row locked, took nothing back`
      : `the claim itself, run by a new worker ${later} after the lease expired with no row locked, took nothing`;
    const already = new Set(this.found.map((anomaly) => anomaly.runId));
    const stranded = this.strandedOn(last, because, (runId) => probe.notTaken.includes(runId) && !already.has(runId));
    this.found = [...this.found, ...stranded];
  }

  /** The runs of `step` left running under a dead worker (among those `counts`), as stranded-run anomalies. */
  private strandedOn(step: RecordedStep, because: string, counts: (runId: number) => boolean): Anomaly[] {
    const before = this.found;
    const found: Anomaly[] = [];
    for (const run of step.runs) {
      if (run.status !== 'running' || run.lease_owner === null || !counts(run.run_id)) continue;
      const owner = workerNamed(step.workers, run.lease_owner, run.run_id);
      if (!owner || !ownerLifeEnded(owner, run.run_id)) continue;
      const ends = [this.crashes.get(owner.id), this.kills.get(run.run_id)].filter((s) => s !== undefined);
      if (ends.length === 0) continue;
      const end = ends.reduce((a, b) => (b.index > a.index ? b : a));
      const claim = (this.claims.get(`${owner.id}/${run.run_id}`) ?? []).findLast((index) => index < end.index);
      const earlier = before.find((a) => a.runId === run.run_id);
      const steps = claim === undefined ? [end.index] : [claim, end.index];
      const dead =
        owner.phase === 'crashed'
          ? `${end.action === 'kill' ? 'killed' : 'crashed'} worker ${owner.id}`
          : `worker ${owner.id}'s dead life (${owner.id} restarted, and life ${lifeOf(owner)} knows nothing of it)`;
      const message = `Run ${run.run_id} is still running under ${dead}; nothing will reclaim it: ${because}.`;
      const same = earlier && earlier.message === message && earlier.workers[0] === owner.id && earlier.steps.join() === steps.join();
      found.push(same ? earlier : { kind: 'stranded-run', runId: run.run_id, workers: [owner.id], steps, raisedAt: earlier?.raisedAt ?? step.index, message });
    }
    return found;
  }

  current(): Anomaly[] {
    return this.found;
  }

  /** Whether a select-then-update claim has run, which workers crashed and which runs' workers were killed. */
  memory(): unknown {
    return [this.claimsSelect, [...this.crashes.keys()].sort(), [...this.kills.keys()].sort((a, b) => a - b)];
  }
}

/**
 * A run that counts against its tenant's cap, as the capped claim counts it (claim-tenant-cap.sql's `busy`):
 * running, its lease not yet expired (`lease_expires_at >= now()`).
 */
function countsAgainstCap(run: RunRow, clockSeconds: number): boolean {
  const expiresAt = secondsOf(run.lease_expires_at);
  return run.status === 'running' && expiresAt !== null && expiresAt >= clockSeconds;
}

/**
 * A tenant with more runs running at once than the claim's per-tenant cap allows (a strategy's `tenantCap`):
 * judged on each step's committed rows as the claim itself counts them, so two claims that each counted the
 * tenant below its cap before the other committed (write skew) show here once both have committed. Raised
 * once per tenant, naming the run that took it over; a later step with more of its runs at once adds to it.
 */
class TenantsOverCap implements Checker {
  /** Per tenant: its anomaly, and every run of it seen running at once with others over the cap. */
  private readonly found = new Map<string, { anomaly: Anomaly; runIds: Set<number> }>();

  constructor(private readonly cap: number) {}

  observe(step: RecordedStep, earlier: readonly TraceStep[]): void {
    const active = step.runs.filter((run) => countsAgainstCap(run, step.clockSeconds));
    const previous = earlier.at(-1);
    const activeBefore = new Set(previous?.runs.filter((run) => countsAgainstCap(run, previous.clockSeconds)).map((run) => run.run_id));
    for (const tenant of new Set(active.map((run) => run.tenant))) {
      const runs = active.filter((run) => run.tenant === tenant).sort((a, b) => a.run_id - b.run_id);
      if (runs.length <= this.cap) continue;
      const before = this.found.get(tenant);
      if (before && runs.every((run) => before.runIds.has(run.run_id))) continue;
      // The run that took the tenant over its cap: one that was not counted a step ago (a claim that just committed).
      const newcomers = runs.filter((run) => !activeBefore.has(run.run_id));
      const overBy = (newcomers.length > 0 ? newcomers : runs).at(-1)!;
      const claims = runs.flatMap((run) => claimOf(step, earlier, run));
      const anomaly: Anomaly = {
        kind: 'tenant-over-cap',
        runId: before?.anomaly.runId ?? overBy.run_id,
        workers: [...new Set([...(before?.anomaly.workers ?? []), ...runs.map((run) => run.lease_owner ?? '?')])].sort() as WorkerId[],
        steps: sortedUnique([...(before?.anomaly.steps ?? []), ...claims, step.index]),
        raisedAt: before?.anomaly.raisedAt ?? step.index,
        message: `Tenant ${tenant} has ${runs.length} runs running at once (${listWorkers(runs.map((run) => `run ${run.run_id} under ${run.lease_owner ?? 'no one'}`))}), over its cap of ${this.cap}.`,
      };
      this.found.set(tenant, { anomaly, runIds: new Set([...(before?.runIds ?? []), ...runs.map((run) => run.run_id)]) });
    }
  }

  current(): Anomaly[] {
    return [...this.found.values()].map((entry) => entry.anomaly);
  }

  /** Nothing more: which tenants are over their cap now is on the latest step's rows, and which have been is in the anomalies. */
  memory(): unknown {
    return null;
  }
}

/** The step at which the worker that holds `run` claimed it, if a worker's claim did (a scenario may start with it held). */
function claimOf(step: RecordedStep, earlier: readonly TraceStep[], run: RunRow): number[] {
  const claimed = (s: RecordedStep) => s.actor === run.lease_owner && s.runId === run.run_id && s.verdict === 'ok' && CLAIM_ACTIONS.includes(s.action);
  if (claimed(step)) return [step.index];
  const found = earlier.findLast(claimed);
  return found ? [found.index] : [];
}

/**
 * What the database answered at the end of a complete schedule, when a claim someone wrote was asked to take
 * back the runs dead workers still held (Simulation.conclude): the claim ran once, as a worker that starts
 * at `atSeconds`, well after the latest of those leases expired (`expiredAtSeconds`), with no row locked by
 * anyone, and took none of `notTaken`.
 */
export interface ReclaimProbe {
  atSeconds: number;
  expiredAtSeconds: number;
  notTaken: number[];
  /** Someone's own reaper (check --reaper) ran first, at the same moment, on the rescuer's session. */
  afterReaper?: true;
}

/**
 * Orders anomalies by the step where each began (then kind and run): an order that later steps never
 * change, for lists and rows a learner watches grow. (A step's list is ordered by the latest step.)
 */
export function byFirstStep(a: Anomaly, b: Anomaly): number {
  return Math.min(...a.steps) - Math.min(...b.steps) || a.kind.localeCompare(b.kind) || a.runId - b.runId;
}

/** Every checker, fed each step once as the engine records it. */
export class AnomalyDetector {
  private readonly stranded = new StrandedRuns();
  private readonly checkers: readonly Checker[];

  /** `tenantCap`: the claim's cap on each tenant's running runs (a strategy's `tenantCap`), when it has one. */
  constructor({ tenantCap }: { tenantCap?: number } = {}) {
    this.checkers = [
      new DoubleClaims(),
      new DuplicateExecutions(),
      new StaleWrites(),
      new FinalizedTwice(),
      new LostCancels(),
      new StuckWorkers(),
      this.stranded,
      ...(tenantCap === undefined ? [] : [new TenantsOverCap(tenantCap)]),
    ];
  }

  /** Takes in the next step (`earlier` holds every step before it) and returns the anomalies known after it. */
  observe(step: RecordedStep, earlier: readonly TraceStep[]): Anomaly[] {
    for (const checker of this.checkers) checker.observe(step, earlier);
    return this.known();
  }

  /** Every checker's anomalies, ordered by the latest step each names. */
  private known(): Anomaly[] {
    return this.checkers.flatMap((checker) => checker.current()).sort((a, b) => (a.steps.at(-1) ?? 0) - (b.steps.at(-1) ?? 0));
  }

  /**
   * The end of a complete schedule, with the database's answer on the runs dead workers still hold (see
   * ReclaimProbe): the anomalies the schedule ends with, those runs' stranded-run included.
   */
  conclude(probe: ReclaimProbe, last: RecordedStep): Anomaly[] {
    this.stranded.conclude(probe, last);
    return this.known();
  }

  /**
   * The past as far as the checkers still judge by it, as canonical text: which anomalies (kind and run)
   * are known, and what each checker remembers. Two histories that end in the same rows, locks and
   * workers and give the same memory will be told the same anomalies whatever happens next: what the
   * explorer's memo (engine/explore.ts) needs to count each such state once.
   */
  memory(): string {
    const known = [...new Set(this.checkers.flatMap((checker) => checker.current()).map((a) => `${outcomeKind(a)}:${a.runId}`))].sort();
    return JSON.stringify([known, ...this.checkers.map((checker) => checker.memory())]);
  }
}
