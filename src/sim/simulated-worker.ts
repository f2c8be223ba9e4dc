/**
 * A worker's behaviour as pure functions: what it does next, which statement that is, and how it reads
 * the database's answer. The engine runs the statement; this file only decides.
 */
import {
  COMMIT,
  isSelectThenUpdateAction,
  type LabStatement,
  MODEL_CALL,
  ROLLBACK,
  selectThenUpdateShape,
  type StrategyDefinition,
  strategyDefinition,
} from '../strategies';
import { type FencedPair, type ParamName, paramValues, type RecoveryDefinition } from '../strategies/types';
import { secondsOf } from './clock';
import type { OwnerWrite, Poll, StepFact, WriteMissedBecause } from './narration';
import type { StrictIsolation } from './isolation';
import type { Row, RunRow, WorkerId, Scenario, Settings, StaleWrite, StatementOutcome, Value, Verdict, WorkerAction, WorkerSpec, WorkerState } from './types';
import { FINISHED_PHASES } from './types';

export function initialWorker(spec: WorkerSpec): WorkerState {
  return {
    id: spec.id,
    phase: 'ready',
    paused: false,
    runId: null,
    generation: null,
    leaseExpiresAtSeconds: null,
    lastHeartbeatSeconds: null,
    workDone: 0,
    callsPaid: 0,
    costPaidCents: 0,
    claimAttempts: 0,
    cancelSeen: false,
    blockedOn: [],
    waitingAction: null,
    ...(spec.name === undefined ? {} : { name: spec.name }),
  };
}

/** The name a worker claims under and its rows' lease_owner carries: its scenario's name for it, or its letter. */
export function nameOf(worker: { id: WorkerId; name?: string }): string {
  return worker.name ?? worker.id;
}

/**
 * The worker a row's lease_owner names. Two workers may share a name: then the one that believes it owns the
 * run, or else the first, since the row itself cannot say which of them it means.
 */
export function workerNamed<W extends WorkerState>(workers: Iterable<W>, owner: string | null, runId: number): W | undefined {
  const named = [...workers].filter((worker) => nameOf(worker) === owner);
  return named.find((worker) => worker.runId === runId && believesItOwns(worker)) ?? named[0];
}

export function isFinished(worker: WorkerState): boolean {
  return FINISHED_PHASES.includes(worker.phase);
}

/** Why a worker cannot take a step now, or null when it can. */
export function whyCannotMove(worker: WorkerState): string | null {
  if (worker.phase === 'crashed') return `${worker.id} has crashed`;
  if (isFinished(worker)) return `${worker.id} has finished (${worker.phase})`;
  if (worker.paused) return `${worker.id} is paused`;
  if (worker.phase === 'blocked') {
    const holders = worker.blockedOn.join(', ');
    return worker.blockedOnAdvisory
      ? `${worker.id} is waiting for an advisory lock held by ${holders || 'another session'}`
      : `${worker.id} is waiting for a row lock held by ${holders || 'another transaction'}`;
  }
  return null;
}

/** The worker with no wait: the lock its last wait was for is forgotten with it. */
export function withoutWait(worker: WorkerState): WorkerState {
  if (!worker.blockedOnAdvisory) return { ...worker, blockedOn: [], waitingAction: null };
  const { blockedOnAdvisory: _advisory, ...rest } = worker;
  return { ...rest, blockedOn: [], waitingAction: null };
}

/** Which life of its name a worker is in: 1 until it restarts. */
export function lifeOf(worker: WorkerState): number {
  return worker.life ?? 1;
}

/**
 * The process that claimed `runId` under the name `owner` is dead: the named worker crashed, or it has
 * restarted since and its new life does not believe it owns the run (it remembers nothing of it). The
 * run's row cannot tell the two lives apart: it names the owner only.
 */
export function ownerLifeEnded(owner: WorkerState | undefined, runId: number): boolean {
  if (owner === undefined) return false;
  if (owner.phase === 'crashed') return true;
  return lifeOf(owner) > 1 && !(owner.runId === runId && believesItOwns(owner));
}

/** Believes it owns (or is claiming, with the row locked) this run. */
export function believesItOwns(worker: WorkerState): boolean {
  return worker.runId !== null && (worker.phase === 'owner' || worker.phase === 'in-transaction' || (worker.phase === 'blocked' && worker.generation !== null));
}

/**
 * The worker whose process an operator's kill of `runId` ends: of the workers that believe they own the run,
 * the one with the newest claim. None: there is no process to kill. The engine's rule for a `kill:` token
 * and the page's for which runs its Kill menu offers.
 */
export function ownerToKill(workers: Iterable<WorkerState>, runId: number): WorkerState | undefined {
  return [...workers].filter((w) => w.runId === runId && believesItOwns(w)).sort((a, b) => (b.generation ?? 0) - (a.generation ?? 0))[0];
}

/**
 * The definition a worker plays. The one place a strategy is looked up: a strategy whose statements the
 * learner typed would come from the settings here, as a StrategyDefinition built from its texts.
 */
export function definitionOf(settings: Settings): StrategyDefinition {
  return settings.definition ?? strategyDefinition(settings.strategy);
}

/**
 * The recovery a worker plays: its scenario makes it a recovery lane (WorkerSpec.recovery) and its queue has a
 * recovery; null otherwise (a recovery lane under a queue without one claims as any worker does).
 */
export function recoveryOf(workerId: WorkerId, scenario: Scenario, settings: Settings): { definition: RecoveryDefinition; skipsActive: boolean } | null {
  const lane = scenario.workers.find((w) => w.id === workerId)?.recovery;
  const definition = definitionOf(settings).recovery;
  return lane && definition ? { definition, skipsActive: lane.skipsActive } : null;
}

/**
 * The lane of the same process as `workerId` that is running `runId`, as the process's memory knows it (DBOS's
 * activeWorkflows): a worker of the scenario with the same `process` that believes it owns the run. None when
 * the worker is a process of its own.
 */
export function laneRunning(workerId: WorkerId, runId: number, scenario: Scenario, lanes: Iterable<WorkerState>): WorkerState | undefined {
  const process = scenario.workers.find((w) => w.id === workerId)?.process;
  if (process === undefined) return undefined;
  const sameProcess = new Set(scenario.workers.filter((w) => w.process === process && w.id !== workerId).map((w) => w.id));
  return [...lanes].find((lane) => sameProcess.has(lane.id) && lane.runId === runId && believesItOwns(lane));
}

/**
 * What the worker does next. `lanes`: every worker's state now, which only a recovery lane that looks in its
 * process's memory reads (the fix's skip); without them it is taken to find nothing there.
 */
export function nextAction(worker: WorkerState, scenario: Scenario, settings: Settings, clockSeconds: number, lanes: Iterable<WorkerState> = []): WorkerAction {
  const recovery = recoveryOf(worker.id, scenario, settings);
  if (recovery && worker.phase === 'ready') return 'recover-read';
  if (recovery && worker.phase === 'selected') {
    return recovery.skipsActive && worker.runId !== null && laneRunning(worker.id, worker.runId, scenario, lanes) ? 'skip-active' : 'recover';
  }
  switch (worker.phase) {
    case 'ready': {
      const claim = definitionOf(settings).claim;
      return claim.shape === 'select-then-update' || (claim.shape === 'one-statement' && claim.readFirst) ? 'select' : 'claim';
    }
    case 'selected': {
      const claim = definitionOf(settings).claim;
      if (claim.shape === 'one-statement' && claim.readFirst) return 'claim';
      if (claim.shape !== 'select-then-update' || !isSelectThenUpdateAction(claim.action)) {
        throw new Error(`worker ${worker.id} selected a run, but the ${definitionOf(settings).id} claim has no update step`);
      }
      return claim.action;
    }
    case 'in-transaction':
      return 'commit';
    case 'aborted':
      return 'rollback';
    case 'owner': {
      // A job held in its claim's transaction: no heartbeat (the row lock is the lease), model calls, then the completion.
      if (worker.holding) return worker.workDone < scenario.workSteps ? 'work' : 'complete';
      if (worker.cancelSeen) return 'cancel-ack';
      const spec = scenario.workers.find((w) => w.id === worker.id);
      if (spec?.stuck) return 'heartbeat';
      const due =
        scenario.heartbeatSeconds !== null && worker.lastHeartbeatSeconds !== null && clockSeconds - worker.lastHeartbeatSeconds >= scenario.heartbeatSeconds;
      if (due) return 'heartbeat';
      return worker.workDone < scenario.workSteps ? 'work' : 'complete';
    }
    default:
      throw new Error(`worker ${worker.id} in phase ${worker.phase} has no next action`);
  }
}

export interface StatementPlan {
  /** The statement to run: its text is what runs and what the trace shows. */
  statement: LabStatement;
  params: Value[];
  /**
   * autocommit: one statement; claim-transaction: BEGIN, the statement, and keep the transaction open if it
   * returned rows; commit: end the open transaction. At REPEATABLE READ / SERIALIZABLE (settings.isolation)
   * every statement of a claim is `transaction`: it runs in the worker's explicit transaction at that level
   * (begun by the first), which stays open with rows or an error; `rollback` ends one that failed.
   * claim-continue: the UPDATE of a two-statement claim, in the transaction its SELECT began (ClaimShape
   * readFirst), kept open with rows as claim-transaction's. Of a job held in its claim's transaction (ClaimShape
   * holdForJob): model-call, a step that sends nothing; finish, the completion in that transaction, which then commits.
   * memory: a look in the process's memory (a recovery lane's skip), which sends nothing either.
   */
  mode: 'autocommit' | 'claim-transaction' | 'claim-continue' | 'commit' | 'transaction' | 'rollback' | 'model-call' | 'finish' | 'memory';
}

/** The one-statement claim a worker runs: a queue whose rescuer is its own process in this scenario claims pending runs only. */
function claimStatement(strategy: StrategyDefinition, scenario: Scenario): LabStatement {
  if (strategy.claim.shape !== 'one-statement') throw new Error('claim needs an atomic strategy');
  return scenario.rescuer && strategy.rescuer ? strategy.rescuer.claim : strategy.claim.claim;
}

export function planAction(action: WorkerAction, worker: WorkerState, scenario: Scenario, settings: Settings): StatementPlan {
  const strategy = definitionOf(settings);
  const values: Record<ParamName, Value> = {
    worker: nameOf(worker),
    leaseSeconds: scenario.leaseSeconds,
    run: worker.runId,
    generation: worker.generation,
    costCents: scenario.costPerCallCents,
    result: `answer from ${worker.id}`,
  };
  const plan = (statement: LabStatement, mode: StatementPlan['mode'] = 'autocommit'): StatementPlan => ({
    statement,
    params: paramValues(statement.params, values),
    mode,
  });
  const write = (pair: FencedPair) => plan(settings.fencing ? pair.fenced : pair.unfenced);
  if (worker.holding && action === 'work') return plan(MODEL_CALL, 'model-call');
  if (action === 'recover-read' || action === 'recover' || action === 'skip-active') {
    const recovery = recoveryOf(worker.id, scenario, settings);
    if (!recovery) throw new Error(`${action} needs a recovery lane under a queue that has a recovery`);
    const { read, write, skipActive } = recovery.definition;
    return action === 'recover-read' ? plan(read) : action === 'recover' ? plan(write) : plan(skipActive, 'memory');
  }
  if (worker.holding && action === 'complete') return plan(settings.fencing ? strategy.complete.fenced : strategy.complete.unfenced, 'finish');
  const readFirst = strategy.claim.shape === 'one-statement' ? strategy.claim.readFirst : undefined;
  if (action === 'select' && readFirst) return plan(readFirst.statement, settings.isolation ? 'transaction' : 'claim-transaction');
  if (action === 'select' || isSelectThenUpdateAction(action)) {
    if (strategy.claim.shape !== 'select-then-update') throw new Error(`${action} needs a select-then-update strategy`);
    return plan(action === 'select' ? strategy.claim.select : strategy.claim.update, settings.isolation ? 'transaction' : 'autocommit');
  }
  switch (action) {
    case 'claim': {
      if (strategy.claim.shape !== 'one-statement') throw new Error('claim needs an atomic strategy');
      return plan(claimStatement(strategy, scenario), settings.isolation ? 'transaction' : readFirst ? 'claim-continue' : 'claim-transaction');
    }
    case 'commit':
      return plan(COMMIT, 'commit');
    case 'rollback':
      return plan(ROLLBACK, 'rollback');
    case 'heartbeat':
      return write(strategy.heartbeat);
    case 'work':
      return write(strategy.work);
    case 'complete':
      return write(strategy.complete);
    case 'cancel-ack':
      return write(strategy.cancelAck);
  }
}

export interface Interpretation {
  worker: WorkerState;
  verdict: Verdict;
  /** What happened, as data (narration.ts puts it into words). */
  facts: StepFact[];
  staleWrite: StaleWrite | null;
}

/** The owner's writes: they act on the run it believes it owns, so a stale owner's may land on another's run. */
export const OWNER_WRITE_ACTIONS: readonly WorkerAction[] = ['heartbeat', 'work', 'complete', 'cancel-ack'];

/**
 * Reads the database's answer to a worker's statement. `runBefore` is the committed row of the worker's
 * run before the statement; `paid` says whether this statement's model call is paid now (a resumed
 * statement was paid for when it was first issued).
 */
export function interpretOutcome(
  before: WorkerState,
  action: WorkerAction,
  outcome: StatementOutcome,
  context: {
    scenario: Scenario;
    clockSeconds: number;
    runBefore: RunRow | undefined;
    paid: boolean;
    fencing: boolean;
    /** The claim takes pending runs only: a queue's, where its rescuer is its own process (claimStatement). */
    claimsPendingOnly?: boolean;
    /** The claim enforces a limit: which runs it takes (StrategyDefinition.limitedTo). */
    claimLimitedTo?: string | undefined;
    /** The level of the worker's explicit claim transaction (settings.isolation); absent at READ COMMITTED. */
    isolation?: StrictIsolation;
    /** The statement deletes the worker's run (LabStatement.deletesRun): its rows deleted, not read back, say whether it wrote. */
    deletesRun?: boolean;
    /** Every committed run row before the statement: a claim reads the row it took as it was. */
    runsBefore?: readonly RunRow[];
    /**
     * The claim begins with a SELECT … \gset in its transaction (ClaimShape readFirst): whether that SELECT
     * locks its row, and the column that carries the run's id (run_id, or its alias).
     */
    readFirst?: { locks: boolean; runColumn: string };
    /** The claim holds its transaction for the whole job (ClaimShape holdForJob): whether its SELECT locks, and its run's column. */
    holdForJob?: { locks: boolean; runColumn: string };
    /** A recovery lane's skip: the lane of its process that is running the run (laneRunning). */
    runningLane?: WorkerId;
  },
): Interpretation {
  const { scenario, clockSeconds, runBefore } = context;
  let worker: WorkerState = withoutWait(before);
  const id = worker.id;
  const run = worker.runId;

  // A held job's completion ends its transaction, whatever it wrote.
  if (worker.holding && action === 'complete' && outcome.status !== 'blocked') worker = withoutHolding(worker);
  if (action === 'work' && context.paid) {
    worker = { ...worker, callsPaid: worker.callsPaid + 1, costPaidCents: worker.costPaidCents + scenario.costPerCallCents };
  }

  if (outcome.status === 'blocked') {
    worker = {
      ...worker,
      phase: 'blocked',
      blockedOn: outcome.holders,
      waitingAction: action,
      ...(outcome.advisory ? { blockedOnAdvisory: true as const } : {}),
    };
    // Keep the phase it will return to implicit: a blocked claim had no run yet; a blocked write still believes it owns.
    const fact: StepFact = {
      kind: 'waits',
      waiter: { kind: 'worker', worker: id },
      holders: outcome.holders,
      ...(outcome.advisory ? { advisory: true as const } : {}),
    };
    return { worker, verdict: 'blocked', facts: [fact], staleWrite: null };
  }

  const first = outcome.status === 'ok' ? (context.deletesRun ? deletedRow(outcome) : outcome.rows[0]) : undefined;
  const staleWrite: StaleWrite | null =
    OWNER_WRITE_ACTIONS.includes(action) && runBefore !== undefined && worker.generation !== null && runBefore.lease_generation !== worker.generation
      ? { heldGeneration: worker.generation, runGeneration: runBefore.lease_generation, runOwner: runBefore.lease_owner }
      : null;

  if (outcome.status === 'error') {
    if (context.isolation && isClaimTransactionAction(action)) return failedTransaction(worker, action, outcome, scenario, context.isolation);
    // The SELECT of a two-statement claim fails as the claim does (FOR UPDATE NOWAIT on a locked row): it tries again.
    if (action === 'claim' || (action === 'select' && context.readFirst)) {
      const attempts = worker.claimAttempts + 1;
      const retry = attempts < scenario.maxClaimAttempts;
      worker = { ...worker, phase: retry ? 'ready' : 'gave-up', claimAttempts: attempts, runId: null, generation: null };
      const failed: StepFact = { kind: 'claim-failed', worker: id, code: outcome.code, message: outcome.message, attempts, retry };
      return { worker, verdict: 'error', facts: [failed], staleWrite: null };
    }
    worker = { ...worker, phase: 'gave-up' };
    return { worker, verdict: 'error', facts: [{ kind: 'statement-failed', worker: id, code: outcome.code, message: outcome.message }], staleWrite };
  }

  if (action === 'rollback') {
    const again = worker.claimAttempts < scenario.maxClaimAttempts;
    worker = { ...worker, phase: again ? 'ready' : 'gave-up' };
    const rolledBack: StepFact = { kind: 'rolled-back', worker: id, attempts: worker.claimAttempts, maxAttempts: scenario.maxClaimAttempts, again };
    return { worker, verdict: 'ok', facts: [rolledBack], staleWrite: null };
  }
  if (action === 'recover-read' || action === 'recover' || action === 'skip-active') return recoveryStep(worker, action, outcome, first, context);
  if (action === 'select') {
    if (!first) return pollAgainOrStop(worker, scenario, (poll) => ({ kind: 'found-no-pending', worker: id, poll }));
    const run = Number(first[context.readFirst?.runColumn ?? 'run_id']);
    worker = { ...worker, phase: 'selected', runId: run };
    const facts: StepFact[] = [
      context.readFirst ? { kind: 'selected-in-transaction', worker: id, run, locked: context.readFirst.locks } : { kind: 'read-pending', worker: id, run },
    ];
    if (context.isolation) facts.push({ kind: 'snapshot-taken', worker: id, isolation: context.isolation });
    return { worker, verdict: 'ok', facts, staleWrite: null };
  }
  if (action === 'claim' && context.holdForJob) return heldClaim(worker, first, context.holdForJob, clockSeconds, scenario);
  if (action === 'work' && before.holding) {
    worker = { ...worker, workDone: worker.workDone + 1 };
    return { worker, verdict: 'ok', facts: [{ kind: 'called-model', worker: id, run }], staleWrite: null };
  }
  // The update of a select-then-update claim; null for the atomic claim.
  const twoStep = isSelectThenUpdateAction(action) ? selectThenUpdateShape(action) : null;
  if (action === 'claim' || twoStep) {
    if (!first) {
      if (twoStep?.checksPending) {
        const attempts = worker.claimAttempts + 1;
        const retry = attempts < scenario.maxClaimAttempts;
        worker = { ...worker, phase: retry ? 'ready' : 'gave-up', claimAttempts: attempts, runId: null };
        return { worker, verdict: 'empty', facts: [{ kind: 'lost-race', worker: id, run, retry }], staleWrite: null };
      }
      if (action === 'claim') {
        const pendingOnly = context.claimsPendingOnly === true;
        const limitedTo = context.claimLimitedTo || null;
        return pollAgainOrStop(worker, scenario, (poll) => ({ kind: 'claimed-nothing', worker: id, pendingOnly, limitedTo, poll }));
      }
      worker = { ...worker, phase: 'no-work', runId: null };
      return { worker, verdict: 'empty', facts: [{ kind: 'run-gone', worker: id, run }], staleWrite: null };
    }
    const generation = Number(first.lease_generation);
    // At REPEATABLE READ / SERIALIZABLE the update of a two-step claim is inside the claim's transaction too.
    const stillOpen = action === 'claim' || context.isolation !== undefined;
    worker = {
      ...worker,
      phase: stillOpen ? 'in-transaction' : 'owner',
      runId: Number(first.run_id),
      generation,
      leaseExpiresAtSeconds: secondsOf(first.lease_expires_at as string | null),
      lastHeartbeatSeconds: clockSeconds,
      workDone: 0,
      cancelSeen: first.cancel_requested === true,
    };
    const claimed = Number(first.run_id);
    const facts: StepFact[] = [{ kind: 'claimed', worker: id, run: claimed, generation }];
    if (runBefore?.status === 'running' && runBefore.lease_owner !== nameOf(worker)) {
      const leaseOver = runBefore.lease_expires_at != null && (secondsOf(runBefore.lease_expires_at) ?? 0) < clockSeconds;
      facts.push({ kind: leaseOver ? 'took-over' : 'overwrote', worker: id, run: claimed, previousOwner: runBefore.lease_owner });
    }
    // A claim that took a running row under the worker's own name (delayed_job's `OR locked_by = name`)
    // cannot tell its own earlier claim from another process's under the same name.
    const taken = context.runsBefore?.find((run) => run.run_id === claimed);
    if (worker.name !== undefined && before.runId !== claimed && taken?.status === 'running' && taken.lease_owner === worker.name) {
      const leftSeconds = (secondsOf(taken.lease_expires_at) ?? clockSeconds) - clockSeconds;
      facts.push({ kind: 'took-by-name', worker: id, run: claimed, name: worker.name, leaseLeftSeconds: leftSeconds });
    }
    if (twoStep && !twoStep.checksPending) facts.push({ kind: 'unchecked-update', worker: id, run: claimed });
    if (stillOpen) facts.push({ kind: 'holds-row-lock', worker: id, run: claimed });
    return { worker, verdict: 'ok', facts, staleWrite: null };
  }
  if (action === 'commit') {
    worker = { ...worker, phase: 'owner' };
    return { worker, verdict: 'ok', facts: [{ kind: 'committed', worker: id, run }], staleWrite: null };
  }

  // The authoritative writes: heartbeat, work, complete, cancel-ack.
  if (!first) {
    worker = { ...worker, phase: 'lost-lease' };
    const write = ownerWrite(action);
    const wasted: StepFact[] = action === 'work' ? [{ kind: 'call-wasted', worker: id, run }] : [];
    if (staleWrite && context.fencing) {
      const { heldGeneration, runGeneration, runOwner } = staleWrite;
      return {
        worker,
        verdict: 'rejected',
        facts: [{ kind: 'fenced', worker: id, write, run, heldGeneration, runGeneration, runOwner }, ...wasted],
        staleWrite,
      };
    }
    const because = unfencedMiss(action, nameOf(worker), runBefore);
    return {
      worker,
      verdict: 'rejected',
      facts: [{ kind: 'write-missed', worker: id, write, run, because, fencing: context.fencing }, ...wasted],
      staleWrite: null,
    };
  }
  // After what the write did: the cancel request it read back, then a stale generation's write that committed.
  const after: StepFact[] = [];
  if (first.cancel_requested === true && (action === 'heartbeat' || action === 'work')) after.push({ kind: 'cancel-seen', worker: id, run });
  if (staleWrite) {
    after.push({ kind: 'stale-write-committed', worker: id, run, heldGeneration: staleWrite.heldGeneration, runGeneration: staleWrite.runGeneration });
  }
  switch (action) {
    case 'heartbeat': {
      const expires = secondsOf(first.lease_expires_at as string | null);
      // Some queues' heartbeats (or their lack of one) leave the run's expiry where it was.
      const renewed = runBefore === undefined || expires !== secondsOf(runBefore.lease_expires_at);
      worker = {
        ...worker,
        lastHeartbeatSeconds: clockSeconds,
        leaseExpiresAtSeconds: expires,
        cancelSeen: worker.cancelSeen || first.cancel_requested === true,
      };
      return { worker, verdict: 'ok', facts: [{ kind: renewed ? 'lease-renewed' : 'lease-unmoved', worker: id, run }, ...after], staleWrite };
    }
    case 'work': {
      worker = { ...worker, workDone: worker.workDone + 1, cancelSeen: worker.cancelSeen || first.cancel_requested === true };
      return { worker, verdict: 'ok', facts: [{ kind: 'progressed', worker: id, run, progress: first.progress ?? null }, ...after], staleWrite };
    }
    case 'complete':
      if (context.deletesRun) {
        worker = { ...worker, phase: 'done' };
        return { worker, verdict: 'ok', facts: [{ kind: 'completed', worker: id, run, deleted: true }, ...after], staleWrite };
      }
      // A completion guarded by the cancel request (River's, fencing on) finalizes a cancelled run as cancelled.
      if (first.status === 'cancelled') {
        worker = { ...worker, phase: 'cancelled' };
        return { worker, verdict: 'ok', facts: [{ kind: 'completed-as-cancelled', worker: id, run }, ...after], staleWrite };
      }
      worker = { ...worker, phase: 'done' };
      return { worker, verdict: 'ok', facts: [{ kind: 'completed', worker: id, run }, ...after], staleWrite };
    default:
      worker = { ...worker, phase: 'cancelled' };
      return { worker, verdict: 'ok', facts: [{ kind: 'acknowledged-cancel', worker: id, run }, ...after], staleWrite };
  }
}

/**
 * A recovery lane's step (WorkerSpec.recovery). Its read found the runs its executor id holds: it goes on with the
 * first (the lab's recovery scenarios have one run; DBOS loops over them all), and with none it is done, as a
 * recovery at launch runs once. Its write by id counted an attempt and re-stamped the run as its executor's: a
 * running run it then runs itself, from its first model call; one already finished it leaves as it is. Its skip
 * found the run in its process's memory and sent nothing.
 */
function recoveryStep(
  worker: WorkerState,
  action: 'recover-read' | 'recover' | 'skip-active',
  outcome: Extract<StatementOutcome, { status: 'ok' }>,
  first: Row | undefined,
  context: { clockSeconds: number; runningLane?: WorkerId },
): Interpretation {
  const id = worker.id;
  const done = (facts: StepFact[], verdict: Verdict): Interpretation => ({
    worker: { ...worker, phase: 'no-work', runId: null },
    verdict,
    facts,
    staleWrite: null,
  });
  if (action === 'recover-read') {
    const runs = outcome.rows.map((row) => Number(row.run_id));
    if (!first) return done([{ kind: 'recovery-read', worker: id, executor: nameOf(worker), runs }], 'empty');
    return {
      worker: { ...worker, phase: 'selected', runId: Number(first.run_id) },
      verdict: 'ok',
      facts: [{ kind: 'recovery-read', worker: id, executor: nameOf(worker), runs }],
      staleWrite: null,
    };
  }
  const run = worker.runId as number;
  if (action === 'skip-active') return done([{ kind: 'skipped-active', worker: id, run, lane: context.runningLane ?? null }], 'ok');
  if (!first) return done([{ kind: 'run-gone', worker: id, run }], 'empty');
  const generation = Number(first.lease_generation);
  if (first.status !== 'running')
    return done([{ kind: 'recovered', worker: id, run, generation, executor: nameOf(worker), runs: false, status: String(first.status) }], 'ok');
  const owner: WorkerState = {
    ...worker,
    phase: 'owner',
    runId: run,
    generation,
    leaseExpiresAtSeconds: secondsOf(first.lease_expires_at as string | null),
    lastHeartbeatSeconds: context.clockSeconds,
    workDone: 0,
    cancelSeen: first.cancel_requested === true,
  };
  return {
    worker: owner,
    verdict: 'ok',
    facts: [{ kind: 'recovered', worker: id, run, generation, executor: nameOf(worker), runs: true, status: 'running' }],
    staleWrite: null,
  };
}

/**
 * The answer to the SELECT … \gset of a claim that holds its transaction for the whole job: the run it found
 * is the worker's from now on, owned by the open transaction (and the row lock, when the SELECT took one),
 * with no lease generation or expiry of its own. No row: the transaction ended, and the worker polls again.
 */
function heldClaim(
  worker: WorkerState,
  first: Row | undefined,
  held: { locks: boolean; runColumn: string },
  clockSeconds: number,
  scenario: Scenario,
): Interpretation {
  const id = worker.id;
  if (!first) return pollAgainOrStop(worker, scenario, (poll) => ({ kind: 'claimed-nothing', worker: id, pendingOnly: false, limitedTo: null, poll }));
  const run = Number(first[held.runColumn]);
  const owner: WorkerState = {
    ...worker,
    phase: 'owner',
    holding: true,
    runId: run,
    generation: null,
    leaseExpiresAtSeconds: null,
    lastHeartbeatSeconds: clockSeconds,
    workDone: 0,
    cancelSeen: false,
  };
  return { worker: owner, verdict: 'ok', facts: [{ kind: 'holds-for-job', worker: id, run, locked: held.locks }], staleWrite: null };
}

/** The worker once its held transaction has ended. */
export function withoutHolding(worker: WorkerState): WorkerState {
  const { holding: _ended, ...rest } = worker;
  return rest;
}

/** The statements of a claim's transaction: at REPEATABLE READ / SERIALIZABLE, a 40001 in any of them means a retry. */
function isClaimTransactionAction(action: WorkerAction): boolean {
  return action === 'select' || action === 'claim' || action === 'commit' || isSelectThenUpdateAction(action);
}

/**
 * A statement of the claim's explicit transaction failed (40001 is the one a schedule honestly meets). A
 * failed statement leaves the transaction aborted: the worker's next step rolls it back, and the one after
 * begins the claim again, up to the scenario's attempts. A failed COMMIT has already ended it (the server
 * rolls back a transaction whose COMMIT fails), so that worker begins again at its next step.
 */
function failedTransaction(
  before: WorkerState,
  action: WorkerAction,
  outcome: { code: string; message: string },
  scenario: Scenario,
  level: StrictIsolation,
): Interpretation {
  const id = before.id;
  const attempts = before.claimAttempts + 1;
  const again = attempts < scenario.maxClaimAttempts;
  const lost = { runId: null, generation: null, leaseExpiresAtSeconds: null, lastHeartbeatSeconds: null, claimAttempts: attempts };
  const statement = action === 'commit' ? 'COMMIT' : action === 'select' ? 'SELECT' : action === 'claim' ? 'claim' : 'UPDATE';
  const failed: StepFact = {
    kind: 'transaction-failed',
    worker: id,
    statement,
    code: outcome.code,
    message: outcome.message,
    isolation: level,
    attempts,
    maxAttempts: scenario.maxClaimAttempts,
    again,
  };
  const worker: WorkerState = { ...before, ...lost, phase: action === 'commit' ? (again ? 'ready' : 'gave-up') : 'aborted' };
  return { worker, verdict: 'error', facts: [failed], staleWrite: null };
}

/**
 * Why a write matched no row when no fence rejected a stale generation: the heartbeat checks the owner,
 * the other writes the status (fenced with the generation still its own, a claim row that is gone).
 */
function unfencedMiss(action: WorkerAction, name: string, runBefore: RunRow | undefined): WriteMissedBecause {
  if (!runBefore) return { kind: 'run-gone' };
  if (action === 'heartbeat') return runBefore.lease_owner === null ? { kind: 'no-owner' } : { kind: 'other-owner', owner: runBefore.lease_owner };
  const owner = runBefore.lease_owner && runBefore.lease_owner !== name ? runBefore.lease_owner : null;
  return { kind: 'not-running', status: runBefore.status, owner };
}

/** The owner's write an action is; only the owner's writes reach the write branch of interpretOutcome. */
function ownerWrite(action: WorkerAction): OwnerWrite {
  if (action === 'heartbeat' || action === 'work' || action === 'complete' || action === 'cancel-ack') return action;
  throw new Error(`${action} is not an owner's write`);
}

/** An empty poll: a worker looks again later, up to its attempt limit. */
function pollAgainOrStop(worker: WorkerState, scenario: Scenario, found: (poll: Poll) => StepFact): Interpretation {
  const attempts = worker.claimAttempts + 1;
  const again = attempts < scenario.maxClaimAttempts;
  return {
    worker: { ...worker, phase: again ? 'ready' : 'no-work', claimAttempts: attempts, runId: null },
    verdict: 'empty',
    facts: [found({ attempts, maxAttempts: scenario.maxClaimAttempts, again })],
    staleWrite: null,
  };
}

/**
 * A DELETE that removed the worker's run: one row deleted, whatever it returned (nothing, or run_id). The row
 * stands for the write's success only; nothing is read from it.
 */
function deletedRow(outcome: Extract<StatementOutcome, { status: 'ok' }>): Row | undefined {
  return outcome.rowCount > 0 ? {} : undefined;
}

/** Whether a rescuer's statement marked the runs it took failed (Solid Queue's pruner) rather than putting them back to pending. */
export function rescueFailedRuns(outcome: StatementOutcome | null): boolean {
  return outcome?.status === 'ok' && outcome.rows.length > 0 && outcome.rows.every((row) => row.status === 'failed');
}
