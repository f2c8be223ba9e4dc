/**
 * A worker's behaviour as pure functions: what it does next, which statement that is, and how it reads
 * the database's answer. The engine runs the statement; this file only decides.
 */
import {
  COMMIT,
  isSelectThenUpdateAction,
  type LabStatement,
  ROLLBACK,
  selectThenUpdateShape,
  type StrategyDefinition,
  strategyDefinition,
} from '../strategies';
import type { FencedPair, ParamName } from '../strategies/types';
import { secondsOf } from './clock';
import { ISOLATION_WORDS, type StrictIsolation } from './isolation';
import type { RunRow, WorkerId, Scenario, Settings, StaleWrite, StatementOutcome, Value, Verdict, WorkerAction, WorkerSpec, WorkerState } from './types';
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
  };
}

export function isFinished(worker: WorkerState): boolean {
  return FINISHED_PHASES.includes(worker.phase);
}

/** Why a worker cannot take a step now, or null when it can. */
export function whyCannotMove(worker: WorkerState): string | null {
  if (worker.phase === 'crashed') return `${worker.id} has crashed`;
  if (isFinished(worker)) return `${worker.id} has finished (${worker.phase})`;
  if (worker.paused) return `${worker.id} is paused`;
  if (worker.phase === 'blocked') return `${worker.id} is waiting for a row lock held by ${worker.blockedOn.join(', ') || 'another transaction'}`;
  return null;
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

export function nextAction(worker: WorkerState, scenario: Scenario, settings: Settings, clockSeconds: number): WorkerAction {
  switch (worker.phase) {
    case 'ready':
      return definitionOf(settings).claim.shape === 'select-then-update' ? 'select' : 'claim';
    case 'selected': {
      const claim = definitionOf(settings).claim;
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
   */
  mode: 'autocommit' | 'claim-transaction' | 'commit' | 'transaction' | 'rollback';
}

/** The one-statement claim a worker runs: a queue whose rescuer is its own process in this scenario claims pending runs only. */
function claimStatement(strategy: StrategyDefinition, scenario: Scenario): LabStatement {
  if (strategy.claim.shape !== 'one-statement') throw new Error('claim needs an atomic strategy');
  return scenario.rescuer && strategy.rescuer ? strategy.rescuer.claim : strategy.claim.claim;
}

export function planAction(action: WorkerAction, worker: WorkerState, scenario: Scenario, settings: Settings): StatementPlan {
  const strategy = definitionOf(settings);
  const values: Record<ParamName, Value> = {
    worker: worker.id,
    leaseSeconds: scenario.leaseSeconds,
    run: worker.runId,
    generation: worker.generation,
    costCents: scenario.costPerCallCents,
    result: `answer from ${worker.id}`,
  };
  const plan = (statement: LabStatement, mode: StatementPlan['mode'] = 'autocommit'): StatementPlan => ({
    statement,
    params: statement.params.map((name) => values[name]),
    mode,
  });
  const write = (pair: FencedPair) => plan(settings.fencing ? pair.fenced : pair.unfenced);
  if (action === 'select' || isSelectThenUpdateAction(action)) {
    if (strategy.claim.shape !== 'select-then-update') throw new Error(`${action} needs a select-then-update strategy`);
    return plan(action === 'select' ? strategy.claim.select : strategy.claim.update, settings.isolation ? 'transaction' : 'autocommit');
  }
  switch (action) {
    case 'claim': {
      if (strategy.claim.shape !== 'one-statement') throw new Error('claim needs an atomic strategy');
      return plan(claimStatement(strategy, scenario), settings.isolation ? 'transaction' : 'claim-transaction');
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
  note: string;
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
  },
): Interpretation {
  const { scenario, clockSeconds, runBefore } = context;
  let worker: WorkerState = { ...before, blockedOn: [], waitingAction: null };
  const id = worker.id;
  const run = worker.runId;

  if (action === 'work' && context.paid) {
    worker = { ...worker, callsPaid: worker.callsPaid + 1, costPaidCents: worker.costPaidCents + scenario.costPerCallCents };
  }

  if (outcome.status === 'blocked') {
    worker = { ...worker, phase: 'blocked', blockedOn: outcome.holders, waitingAction: action };
    // Keep the phase it will return to implicit: a blocked claim had no run yet; a blocked write still believes it owns.
    const on = outcome.holders.length > 0 ? outcome.holders.join(' and ') : 'another transaction';
    return { worker, verdict: 'blocked', note: `${id} waits: ${on} holds a row lock it needs.`, staleWrite: null };
  }

  const first = outcome.status === 'ok' ? outcome.rows[0] : undefined;
  const staleWrite: StaleWrite | null =
    OWNER_WRITE_ACTIONS.includes(action) && runBefore !== undefined && worker.generation !== null && runBefore.lease_generation !== worker.generation
      ? { heldGeneration: worker.generation, runGeneration: runBefore.lease_generation, runOwner: runBefore.lease_owner }
      : null;

  if (outcome.status === 'error') {
    if (context.isolation && isClaimTransactionAction(action)) return failedTransaction(worker, action, outcome, scenario, context.isolation);
    if (action === 'claim') {
      const attempts = worker.claimAttempts + 1;
      const retry = attempts < scenario.maxClaimAttempts;
      worker = { ...worker, phase: retry ? 'ready' : 'gave-up', claimAttempts: attempts, runId: null, generation: null };
      const then = retry ? `${id} rolls back and will try again.` : `${id} rolls back and gives up after ${attempts} attempts.`;
      return { worker, verdict: 'error', note: `${id}'s claim failed with ${outcome.code}: ${outcome.message}. ${then}`, staleWrite: null };
    }
    worker = { ...worker, phase: 'gave-up' };
    return { worker, verdict: 'error', note: `${id}'s statement failed with ${outcome.code}: ${outcome.message}. ${id} stops.`, staleWrite };
  }

  if (action === 'rollback') {
    const again = worker.claimAttempts < scenario.maxClaimAttempts;
    worker = { ...worker, phase: again ? 'ready' : 'gave-up' };
    const then = again
      ? `tries the claim again from BEGIN (attempt ${worker.claimAttempts + 1} of ${scenario.maxClaimAttempts})`
      : `gives up after ${worker.claimAttempts} attempts`;
    return { worker, verdict: 'ok', note: `${id} rolled back its failed transaction and ${then}.`, staleWrite: null };
  }
  if (action === 'select') {
    if (!first) return pollAgainOrStop(worker, scenario, `${id} found no pending run.`);
    worker = { ...worker, phase: 'selected', runId: Number(first.run_id) };
    const snapshot = context.isolation
      ? ` Its ${ISOLATION_WORDS[context.isolation]} transaction stays open: this SELECT took its snapshot, and every later statement of it reads that snapshot.`
      : '';
    return { worker, verdict: 'ok', note: `${id} read run ${first.run_id} as pending. It has not claimed it yet.${snapshot}`, staleWrite: null };
  }
  // The update of a select-then-update claim; null for the atomic claim.
  const twoStep = isSelectThenUpdateAction(action) ? selectThenUpdateShape(action) : null;
  if (action === 'claim' || twoStep) {
    if (!first) {
      if (twoStep?.checksPending) {
        const attempts = worker.claimAttempts + 1;
        const retry = attempts < scenario.maxClaimAttempts;
        const note = `${id}'s compare-and-set matched 0 rows: run ${run} was no longer pending, so ${id} lost the race ${retry ? 'and looks again' : 'and gives up'}.`;
        worker = { ...worker, phase: retry ? 'ready' : 'gave-up', claimAttempts: attempts, runId: null };
        return { worker, verdict: 'empty', note, staleWrite: null };
      }
      if (action === 'claim') {
        const found = `${context.claimsPendingOnly ? 'no run was pending' : 'no run was pending or expired'}${context.claimLimitedTo ? ` ${context.claimLimitedTo}` : ''}`;
        return pollAgainOrStop(worker, scenario, `${id} claimed nothing: ${found}, or every candidate was locked.`);
      }
      worker = { ...worker, phase: 'no-work', runId: null };
      return { worker, verdict: 'empty', note: `${id} claimed nothing: run ${run} is gone. It stops.`, staleWrite: null };
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
    const held = stillOpen ? ' Its transaction is still open, so it holds the row lock until it commits.' : '';
    const unchecked = twoStep && !twoStep.checksPending ? ' The UPDATE did not check that the run was still pending.' : '';
    const leaseOver = runBefore?.lease_expires_at != null && (secondsOf(runBefore.lease_expires_at) ?? 0) < clockSeconds;
    const tookOver =
      runBefore?.status !== 'running' || runBefore.lease_owner === id
        ? ''
        : leaseOver
          ? ` It took the run over from ${runBefore.lease_owner}, whose lease had expired.`
          : ` It overwrote ${runBefore.lease_owner}'s claim, which was still valid.`;
    return {
      worker,
      verdict: 'ok',
      note: `${id} now owns run ${first.run_id} with generation ${generation}.${tookOver}${unchecked}${held}`,
      staleWrite: null,
    };
  }
  if (action === 'commit') {
    worker = { ...worker, phase: 'owner' };
    return { worker, verdict: 'ok', note: `${id} committed its claim of run ${run}; the row lock is released.`, staleWrite: null };
  }

  // The authoritative writes: heartbeat, work, complete, cancel-ack.
  if (!first) {
    worker = { ...worker, phase: 'lost-lease' };
    const paidNote = action === 'work' ? ` The model call was already paid for.` : '';
    if (staleWrite && context.fencing) {
      const why = `${id} holds generation ${staleWrite.heldGeneration} but run ${run} is at generation ${staleWrite.runGeneration}${staleWrite.runOwner ? ` (owned by ${staleWrite.runOwner})` : ''}`;
      return {
        worker,
        verdict: 'rejected',
        note: `${id}'s ${describeWrite(action)} matched 0 rows: ${why}. The fence rejected the write and ${id} stops.${paidNote}`,
        staleWrite,
      };
    }
    // Unfenced, the write checks no generation: what stopped it is the condition its WHERE does check. Fenced
    // with the generation still its own, the write's other condition stopped it (a claim row that is gone).
    const why = unfencedMiss(action, id, run, runBefore);
    const guard = context.fencing ? `${id}'s claim is no longer the run's, so the guard refused the write` : 'Fencing is off';
    return {
      worker,
      verdict: 'rejected',
      note: `${id}'s ${describeWrite(action)} matched 0 rows: ${why}. ${guard}; ${id} stops.${paidNote}`,
      staleWrite: null,
    };
  }
  const stale = staleWrite
    ? ` This write committed although ${id}'s generation ${staleWrite.heldGeneration} is stale (the run is at ${staleWrite.runGeneration}): split ownership.`
    : '';
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
      const cancel = first.cancel_requested === true ? ` It sees cancel_requested and will stop.` : '';
      const what = renewed
        ? `${id} renewed its lease on run ${run}.`
        : `${id}'s heartbeat left run ${run}'s lease where it was: this strategy's heartbeat does not move the expiry.`;
      return { worker, verdict: 'ok', note: `${what}${cancel}${stale}`, staleWrite };
    }
    case 'work': {
      worker = { ...worker, workDone: worker.workDone + 1, cancelSeen: worker.cancelSeen || first.cancel_requested === true };
      const cancel = first.cancel_requested === true ? ` It sees cancel_requested and will stop.` : '';
      return { worker, verdict: 'ok', note: `${id} paid for a model call on run ${run} and recorded progress ${first.progress}.${cancel}${stale}`, staleWrite };
    }
    case 'complete':
      // A completion guarded by the cancel request (River's, fencing on) finalizes a cancelled run as cancelled.
      if (first.status === 'cancelled') {
        worker = { ...worker, phase: 'cancelled' };
        return { worker, verdict: 'ok', note: `${id}'s completion found cancel_requested set: run ${run} is cancelled, not done.${stale}`, staleWrite };
      }
      worker = { ...worker, phase: 'done' };
      return { worker, verdict: 'ok', note: `${id} marked run ${run} done.${stale}`, staleWrite };
    default:
      worker = { ...worker, phase: 'cancelled' };
      return { worker, verdict: 'ok', note: `${id} saw the cancel request and marked run ${run} cancelled.${stale}`, staleWrite };
  }
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
  const what = action === 'commit' ? 'COMMIT' : action === 'select' ? 'SELECT' : action === 'claim' ? 'claim' : 'UPDATE';
  const failed = `${id}'s ${what} failed with ${outcome.code}: ${outcome.message}.`;
  if (action === 'commit') {
    const worker: WorkerState = { ...before, ...lost, phase: again ? 'ready' : 'gave-up' };
    const then = again
      ? `${id} will begin the claim again (attempt ${attempts + 1} of ${scenario.maxClaimAttempts}).`
      : `${id} gives up after ${attempts} attempts.`;
    return {
      worker,
      verdict: 'error',
      note: `${failed} The server rolled its ${ISOLATION_WORDS[level]} transaction back, claim and all: ${then}`,
      staleWrite: null,
    };
  }
  const worker: WorkerState = { ...before, ...lost, phase: 'aborted' };
  const then = again ? 'then tries again' : `then gives up (attempt ${attempts} of ${scenario.maxClaimAttempts})`;
  return {
    worker,
    verdict: 'error',
    note: `${failed} Its ${ISOLATION_WORDS[level]} transaction is aborted and its locks are gone: ${id} rolls back at its next step, ${then}.`,
    staleWrite: null,
  };
}

/** Why an unfenced write matched no row: the heartbeat checks the owner, the other writes the status. */
function unfencedMiss(action: WorkerAction, id: WorkerId, run: number | null, runBefore: RunRow | undefined): string {
  if (!runBefore) return `run ${run} is gone`;
  if (action === 'heartbeat') {
    return runBefore.lease_owner === null ? `run ${run} has no lease owner` : `run ${run}'s lease_owner is ${runBefore.lease_owner}, not ${id}`;
  }
  const owner = runBefore.lease_owner && runBefore.lease_owner !== id ? ` (${runBefore.lease_owner} owns it)` : '';
  return `run ${run} is no longer 'running': its status is '${runBefore.status}'${owner}`;
}

/** An empty poll: a worker looks again later, up to its attempt limit. */
function pollAgainOrStop(worker: WorkerState, scenario: Scenario, found: string): Interpretation {
  const attempts = worker.claimAttempts + 1;
  const again = attempts < scenario.maxClaimAttempts;
  return {
    worker: { ...worker, phase: again ? 'ready' : 'no-work', claimAttempts: attempts, runId: null },
    verdict: 'empty',
    note: `${found} ${again ? `It will poll again (attempt ${attempts} of ${scenario.maxClaimAttempts}).` : `After ${attempts} attempts it stops.`}`,
    staleWrite: null,
  };
}

/** An owner's write in words: "completion write". */
export function describeWrite(action: WorkerAction): string {
  switch (action) {
    case 'heartbeat':
      return 'heartbeat';
    case 'work':
      return 'progress write';
    case 'complete':
      return 'completion write';
    case 'cancel-ack':
      return 'cancellation write';
    default:
      return action;
  }
}

/** Whether a rescuer's statement marked the runs it took failed (Solid Queue's pruner) rather than putting them back to pending. */
export function rescueFailedRuns(outcome: StatementOutcome | null): boolean {
  return outcome?.status === 'ok' && outcome.rows.length > 0 && outcome.rows.every((row) => row.status === 'failed');
}
