/**
 * What a step did, as data, and the one place that puts it into words.
 *
 * The engine records each step's facts (who did what to which run, which guard stopped it, whose row
 * lock it waits for); narrate() turns them into the sentence the page and the command line show. A
 * chapter, a question or a test asks for a fact (`{fact: 'overwrote'}`), never for a phrase, so the
 * wording can change without breaking them (Elle's explanations are data in the same way).
 */
import { clockLabel, durationLabel } from './clock';
import { ISOLATION_WORDS, type StrictIsolation } from './isolation';
import type { Value, WorkerAction, WorkerId } from './types';

/** An owner's write: what it is called in a sentence ("completion write"). */
export type OwnerWrite = 'heartbeat' | 'work' | 'complete' | 'cancel-ack';

/** Who waits for a row lock: a worker's statement, the operator's cancel, or one of the rescuer's writes. */
type Waiter =
  | { kind: 'worker'; worker: WorkerId }
  | { kind: 'operator-cancel'; run: number }
  | { kind: 'rescuer-write'; run: number }
  | { kind: 'rescuer-sweep' };

/** Why an owner's write matched no row, when fencing did not reject a stale generation. */
export type WriteMissedBecause =
  | { kind: 'run-gone' }
  | { kind: 'no-owner' }
  | { kind: 'other-owner'; owner: string }
  /** `owner`: another worker that owns the run now, if any. */
  | { kind: 'not-running'; status: string; owner: string | null };

/** A run as a rescuer found it before its write: its status and owner, or gone. */
type RunSeen = { status: string; owner: string | null } | null;

/** An empty poll: whether the worker looks again, and how many attempts it has made of how many. */
export interface Poll {
  attempts: number;
  maxAttempts: number;
  again: boolean;
}

/**
 * Everything a step's narration can say, one kind per fact. A step records one or more, in the order
 * they are told: the main fact first, then what qualifies it (a claim, then whose claim it overwrote).
 */
export type StepFact =
  // A worker's statements
  // advisory: the wait is for an advisory lock (check --db plays pg_advisory_lock), not a row's lock.
  | { kind: 'waits'; waiter: Waiter; holders: string[]; advisory?: true }
  | { kind: 'claim-failed'; worker: WorkerId; code: string; message: string; attempts: number; retry: boolean }
  | { kind: 'statement-failed'; worker: WorkerId; code: string; message: string }
  | {
      kind: 'transaction-failed';
      worker: WorkerId;
      statement: 'COMMIT' | 'SELECT' | 'claim' | 'UPDATE';
      code: string;
      message: string;
      isolation: StrictIsolation;
      attempts: number;
      maxAttempts: number;
      again: boolean;
    }
  | { kind: 'rolled-back'; worker: WorkerId; attempts: number; maxAttempts: number; again: boolean }
  | { kind: 'found-no-pending'; worker: WorkerId; poll: Poll }
  | { kind: 'claimed-nothing'; worker: WorkerId; pendingOnly: boolean; limitedTo: string | null; poll: Poll }
  | { kind: 'read-pending'; worker: WorkerId; run: number }
  /** The SELECT … \gset of a two-statement claim found a run: its transaction stays open for the UPDATE. */
  | { kind: 'selected-in-transaction'; worker: WorkerId; run: number; locked: boolean }
  | { kind: 'holds-for-job'; worker: WorkerId; run: number; locked: boolean }
  | { kind: 'called-model'; worker: WorkerId; run: number | null }
  | { kind: 'snapshot-taken'; worker: WorkerId; isolation: StrictIsolation }
  | { kind: 'lost-race'; worker: WorkerId; run: number | null; retry: boolean }
  | { kind: 'run-gone'; worker: WorkerId; run: number | null }
  | { kind: 'claimed'; worker: WorkerId; run: number; generation: number }
  | { kind: 'took-over'; worker: WorkerId; run: number; previousOwner: string | null }
  | { kind: 'overwrote'; worker: WorkerId; run: number; previousOwner: string | null }
  /** Its claim matched a running row because the row names the worker's own name, whoever took it under that name. */
  | { kind: 'took-by-name'; worker: WorkerId; run: number; name: string; leaseLeftSeconds: number }
  | { kind: 'unchecked-update'; worker: WorkerId; run: number }
  // A recovery lane's (WorkerSpec.recovery): what its read found for its executor id, its write by id (runs: it
  // runs the body itself, the run being still running), and the fixed version's skip (lane: who runs the run).
  | { kind: 'recovery-read'; worker: WorkerId; executor: string; runs: number[] }
  | { kind: 'recovered'; worker: WorkerId; run: number; generation: number; executor: string; runs: boolean; status: string }
  | { kind: 'skipped-active'; worker: WorkerId; run: number; lane: WorkerId | null }
  | { kind: 'holds-row-lock'; worker: WorkerId; run: number }
  | { kind: 'committed'; worker: WorkerId; run: number | null }
  | { kind: 'fenced'; worker: WorkerId; write: OwnerWrite; run: number | null; heldGeneration: number; runGeneration: number; runOwner: string | null }
  | { kind: 'write-missed'; worker: WorkerId; write: OwnerWrite; run: number | null; because: WriteMissedBecause; fencing: boolean }
  | { kind: 'call-wasted'; worker: WorkerId; run: number | null }
  | { kind: 'lease-renewed'; worker: WorkerId; run: number | null }
  | { kind: 'lease-unmoved'; worker: WorkerId; run: number | null }
  | { kind: 'progressed'; worker: WorkerId; run: number | null; progress: Value }
  | { kind: 'completed'; worker: WorkerId; run: number | null; deleted?: true }
  | { kind: 'completed-as-cancelled'; worker: WorkerId; run: number | null }
  | { kind: 'acknowledged-cancel'; worker: WorkerId; run: number | null }
  | { kind: 'cancel-seen'; worker: WorkerId; run: number | null }
  | { kind: 'stale-write-committed'; worker: WorkerId; run: number | null; heldGeneration: number; runGeneration: number }
  // The clock and the faults
  | { kind: 'clock-moved'; fromSeconds: number; toSeconds: number }
  | { kind: 'lease-expired'; leases: { run: number; owner: string | null }[]; takenBackBy: 'rescuer' | 'expiry-claim' }
  | { kind: 'paused'; worker: WorkerId; plannedAt: number | null }
  | { kind: 'resumed'; worker: WorkerId; plannedAt: number | null }
  | { kind: 'still-believes'; worker: WorkerId; run: number; generation: number | null }
  | { kind: 'crashed'; worker: WorkerId; plannedAt: number | null }
  | { kind: 'restarted'; worker: WorkerId; life: number; forgot: number | null }
  | { kind: 'transaction-rolled-back'; worker: WorkerId }
  | { kind: 'claim-undone'; worker: WorkerId; run: number; generation: number; row: { generation: number; status: string } | null }
  | { kind: 'lease-orphaned'; worker: WorkerId; run: number }
  // The operator
  | { kind: 'cancel-requested'; run: number }
  | { kind: 'cancel-missed'; run: number }
  | { kind: 'killed'; run: number; worker: WorkerId }
  // The rescuer
  | { kind: 'no-rescuer'; queue: string }
  | { kind: 'rescuer-stalled'; sinceSeconds: number }
  | { kind: 'rescuer-read'; runs: { run: number; generation: number }[] }
  | { kind: 'rescued'; run: number }
  | { kind: 'rescued-finished-run'; run: number; was: RunSeen }
  | { kind: 'rescue-missed'; run: number; was: RunSeen }
  | { kind: 'rescue-failed'; run: number }
  | { kind: 'swept'; runs: { run: number; owner: string | null }[]; marked: 'pending' | 'failed' }
  | { kind: 'swept-nothing' }
  | { kind: 'sweep-failed' };

export type StepFactKind = StepFact['kind'];

/** The step's facts as the sentence shown for it. */
export function narrate(facts: readonly StepFact[]): string {
  return facts.map(sentence).join(' ');
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

const and = (names: readonly string[]): string => names.join(' and ');

const plannedPrefix = (plannedAt: number | null): string => (plannedAt === null ? '' : `At ${clockLabel(plannedAt)}, as planned, `);

function pollSentence(poll: Poll): string {
  return poll.again ? `It will poll again (attempt ${poll.attempts} of ${poll.maxAttempts}).` : `After ${poll.attempts} attempts it stops.`;
}

function waitSentence(waiter: Waiter, holders: readonly string[], advisory = false): string {
  switch (waiter.kind) {
    case 'worker':
      return advisory
        ? `${waiter.worker} waits: ${holders.length > 0 ? and(holders) : 'another session'} holds an advisory lock it asks for.`
        : `${waiter.worker} waits: ${holders.length > 0 ? and(holders) : 'another transaction'} holds a row lock it needs.`;
    case 'operator-cancel':
      return `The operator's cancel of run ${waiter.run} waits for ${and(holders)}'s row lock.`;
    case 'rescuer-write':
      return `The rescuer's write of run ${waiter.run} waits for ${and(holders)}'s row lock.`;
    case 'rescuer-sweep':
      return `The rescuer's UPDATE waits for ${and(holders)}'s row lock.`;
  }
}

function missedBecause(fact: { worker: WorkerId; run: number | null; because: WriteMissedBecause }): string {
  const { worker, run, because } = fact;
  switch (because.kind) {
    case 'run-gone':
      return `run ${run} is gone (a completion deleted it)`;
    case 'no-owner':
      return `run ${run} has no lease owner`;
    case 'other-owner':
      return `run ${run}'s lease_owner is ${because.owner}, not ${worker}`;
    case 'not-running':
      return `run ${run} is no longer 'running': its status is '${because.status}'${because.owner ? ` (${because.owner} owns it)` : ''}`;
  }
}

const seen = (was: RunSeen): string => (was ? `${was.status}${was.owner ? ` under ${was.owner}` : ''}` : 'gone');

/** What a one-statement rescue did: back to pending (Oban's Lifeline, pg-boss's expiry) or failed (Solid Queue's pruner). */
function sweepSentence(fact: Extract<StepFact, { kind: 'swept' }>): string {
  const one = fact.runs.length === 1;
  const runs = fact.runs.map(({ run, owner }) => (owner ? `${run} (${owner}'s)` : `${run}`)).join(', ');
  const subject = `${one ? 'run' : 'runs'} ${runs}`;
  const unasked = `nothing asked whether ${one ? 'its worker is' : 'their workers are'} still running ${one ? 'it' : 'them'}`;
  return fact.marked === 'failed'
    ? `The rescuer marked ${subject} failed in one UPDATE, on time alone: ${unasked}, and no claim takes ${one ? 'it' : 'them'} again.`
    : `The rescuer put ${subject} back to pending in one UPDATE, purely on time: ${unasked}, and any worker's claim can take ${one ? 'it' : 'them'} again.`;
}

/** One fact in words. Exhaustive: a new kind of fact does not compile until it is told here. */
function sentence(fact: StepFact): string {
  switch (fact.kind) {
    case 'waits':
      return waitSentence(fact.waiter, fact.holders, fact.advisory);
    case 'claim-failed':
      return `${fact.worker}'s claim failed with ${fact.code}: ${fact.message}. ${fact.worker} rolls back and ${fact.retry ? 'will try again.' : `gives up after ${fact.attempts} attempts.`}`;
    case 'statement-failed':
      return `${fact.worker}'s statement failed with ${fact.code}: ${fact.message}. ${fact.worker} stops.`;
    case 'transaction-failed': {
      const { worker: id, attempts, maxAttempts } = fact;
      const failed = `${id}'s ${fact.statement} failed with ${fact.code}: ${fact.message}.`;
      const level = ISOLATION_WORDS[fact.isolation];
      if (fact.statement === 'COMMIT') {
        const then = fact.again
          ? `${id} will begin the claim again (attempt ${attempts + 1} of ${maxAttempts}).`
          : `${id} gives up after ${attempts} attempts.`;
        return `${failed} The server rolled its ${level} transaction back, claim and all: ${then}`;
      }
      const then = fact.again ? 'then tries again' : `then gives up (attempt ${attempts} of ${maxAttempts})`;
      return `${failed} Its ${level} transaction is aborted and its locks are gone: ${id} rolls back at its next step, ${then}.`;
    }
    case 'rolled-back':
      return `${fact.worker} rolled back its failed transaction and ${
        fact.again ? `tries the claim again from BEGIN (attempt ${fact.attempts + 1} of ${fact.maxAttempts})` : `gives up after ${fact.attempts} attempts`
      }.`;
    case 'found-no-pending':
      return `${fact.worker} found no pending run. ${pollSentence(fact.poll)}`;
    case 'claimed-nothing': {
      const found = `${fact.pendingOnly ? 'no run was pending' : 'no run was pending or expired'}${fact.limitedTo ? ` ${fact.limitedTo}` : ''}`;
      return `${fact.worker} claimed nothing: ${found}, or every candidate was locked. ${pollSentence(fact.poll)}`;
    }
    case 'read-pending':
      return `${fact.worker} read run ${fact.run} as pending. It has not claimed it yet.`;
    case 'selected-in-transaction':
      return fact.locked
        ? `${fact.worker}'s SELECT found run ${fact.run} and locked its row; its transaction stays open for the UPDATE, holding the lock.`
        : `${fact.worker}'s SELECT found run ${fact.run} and locked nothing; its transaction stays open for the UPDATE, and another worker may take the run meanwhile.`;
    case 'holds-for-job':
      return fact.locked
        ? `${fact.worker}'s SELECT found run ${fact.run} and locked its row; its transaction stays open for the whole job, the lock its lease, until its completion commits (a crash rolls it back and frees the row).`
        : `${fact.worker}'s SELECT found run ${fact.run} and locked nothing; its transaction stays open for the whole job, but nothing stops another worker from taking the run meanwhile.`;
    case 'called-model':
      return `${fact.worker} paid for a model call on run ${fact.run}; nothing is sent to the database, and its transaction stays open.`;
    case 'snapshot-taken':
      return `Its ${ISOLATION_WORDS[fact.isolation]} transaction stays open: this SELECT took its snapshot, and every later statement of it reads that snapshot.`;
    case 'lost-race':
      return `${fact.worker}'s compare-and-set matched 0 rows: run ${fact.run} was no longer pending, so ${fact.worker} lost the race ${fact.retry ? 'and looks again' : 'and gives up'}.`;
    case 'run-gone':
      return `${fact.worker} claimed nothing: run ${fact.run} is gone. It stops.`;
    case 'claimed':
      return `${fact.worker} now owns run ${fact.run} with generation ${fact.generation}.`;
    case 'took-over':
      return `It took the run over from ${fact.previousOwner}, whose lease had expired.`;
    case 'overwrote':
      return `It overwrote ${fact.previousOwner}'s claim, which was still valid.`;
    case 'took-by-name': {
      const lease = fact.leaseLeftSeconds > 0 ? `a lease with ${fact.leaseLeftSeconds} s still to run` : 'a lease that had run out';
      return `Its claim took the run by name: the row's lease_owner, '${fact.name}', is the name ${fact.worker} runs under, so it matched ${lease}, whoever took it under that name.`;
    }
    case 'unchecked-update':
      return 'The UPDATE did not check that the run was still pending.';
    case 'recovery-read':
      return fact.runs.length === 0
        ? `${fact.worker}, the recovery at launch, found no running run of executor '${fact.executor}' created by the cutoff: it has nothing to recover, and is done.`
        : `${fact.worker}, the recovery at launch, read ${fact.runs.length === 1 ? 'run' : 'runs'} ${and(fact.runs.map(String))} as running under executor '${fact.executor}' and created no later than the cutoff: to recover. The row cannot say whether that executor is this process, alive.`;
    case 'recovered':
      return fact.runs
        ? `${fact.worker} wrote run ${fact.run} again by its id: executor '${fact.executor}' re-stamped and a recovery attempt counted (generation ${fact.generation}). The write checks nothing of who runs the run, and ${fact.worker} now runs it from the start.`
        : `${fact.worker} wrote run ${fact.run} again by its id (generation ${fact.generation}), but the run is ${fact.status}: recovery returns it as it is and runs nothing.`;
    case 'skipped-active':
      return `${fact.worker} looked in its process's memory before writing: ${fact.lane === null ? 'a lane of its process' : fact.lane} is running run ${fact.run}, so recovery skips it. Nothing is sent to the database.`;
    case 'holds-row-lock':
      return 'Its transaction is still open, so it holds the row lock until it commits.';
    case 'committed':
      return `${fact.worker} committed its claim of run ${fact.run}; the row lock is released.`;
    case 'fenced': {
      const owner = fact.runOwner ? ` (owned by ${fact.runOwner})` : '';
      const why = `${fact.worker} holds generation ${fact.heldGeneration} but run ${fact.run} is at generation ${fact.runGeneration}${owner}`;
      return `${fact.worker}'s ${describeWrite(fact.write)} matched 0 rows: ${why}. The fence rejected the write and ${fact.worker} stops.`;
    }
    case 'write-missed': {
      // Unfenced, the write checks no generation: what stopped it is the condition its WHERE does check. Fenced
      // with the generation still its own, the write's other condition stopped it (a claim row that is gone).
      const guard = fact.fencing ? `${fact.worker}'s claim is no longer the run's, so the guard refused the write` : 'Fencing is off';
      // A run that is gone left no row to write, whatever the write checks.
      if (fact.because.kind === 'run-gone')
        return `${fact.worker}'s ${describeWrite(fact.write)} matched 0 rows: ${missedBecause(fact)}; ${fact.worker} stops.`;
      return `${fact.worker}'s ${describeWrite(fact.write)} matched 0 rows: ${missedBecause(fact)}. ${guard}; ${fact.worker} stops.`;
    }
    case 'call-wasted':
      return 'The model call was already paid for.';
    case 'lease-renewed':
      return `${fact.worker} renewed its lease on run ${fact.run}.`;
    case 'lease-unmoved':
      return `${fact.worker}'s heartbeat left run ${fact.run}'s lease where it was: this strategy's heartbeat does not move the expiry.`;
    case 'progressed':
      return `${fact.worker} paid for a model call on run ${fact.run} and recorded progress ${fact.progress}.`;
    case 'completed':
      return fact.deleted
        ? `${fact.worker} completed run ${fact.run} by deleting it: the run is no longer in runs.`
        : `${fact.worker} marked run ${fact.run} done.`;
    case 'completed-as-cancelled':
      return `${fact.worker}'s completion found cancel_requested set: run ${fact.run} is cancelled, not done.`;
    case 'acknowledged-cancel':
      return `${fact.worker} saw the cancel request and marked run ${fact.run} cancelled.`;
    case 'cancel-seen':
      return 'It sees cancel_requested and will stop.';
    case 'stale-write-committed':
      return `This write committed although ${fact.worker}'s generation ${fact.heldGeneration} is stale (the run is at ${fact.runGeneration}): split ownership.`;
    case 'clock-moved':
      return `The clock moved ${durationLabel(fact.toSeconds - fact.fromSeconds)}, from ${clockLabel(fact.fromSeconds)} to ${clockLabel(fact.toSeconds)}.`;
    case 'lease-expired': {
      const which = fact.leases.map(({ run, owner }) => `Run ${run}'s lease (held by ${owner}) expired`).join('; ');
      const takesItBack =
        fact.takenBackBy === 'rescuer'
          ? "and only the queue's rescuer takes it back, since the claim reads pending runs only"
          : 'so only a claim that looks for expired leases takes it back; one that reads only pending runs never does';
      return `${which}: the row still says running under its old owner, ${takesItBack}.`;
    }
    case 'paused':
      return `${plannedPrefix(fact.plannedAt)}${fact.worker} froze (a long GC pause, a stalled call): it does nothing, but still believes what it believed.`;
    case 'resumed':
      return `${plannedPrefix(fact.plannedAt)}${fact.worker} woke up and carries on.`;
    case 'still-believes':
      return `It still believes it owns run ${fact.run} with generation ${fact.generation}.`;
    case 'crashed':
      return `${plannedPrefix(fact.plannedAt)}${fact.worker} crashed.`;
    case 'restarted': {
      const forgot = fact.forgot === null ? '' : ` Run ${fact.forgot}'s row still names ${fact.worker} as its owner; this life knows nothing of it.`;
      return `${fact.worker} started again under the same name: a new process and a new session (life ${fact.life}), with no memory of its last life.${forgot}`;
    }
    case 'transaction-rolled-back':
      return 'Its open transaction rolled back and its row lock is gone.';
    case 'claim-undone': {
      const back = fact.row ? ` (the row is back at generation ${fact.row.generation}, ${fact.row.status})` : '';
      return `Its claim of run ${fact.run} with generation ${fact.generation} never happened${back}: the next claim can take the same generation.`;
    }
    case 'lease-orphaned':
      return `Run ${fact.run} keeps its lease until it expires; then it is an orphan.`;
    case 'cancel-requested':
      return `The operator asked for run ${fact.run} to stop. The request is stored in the row, so whoever runs it will see it at its next check.`;
    case 'cancel-missed':
      return `The operator's cancel of run ${fact.run} did not apply.`;
    case 'killed':
      return `To cancel run ${fact.run} the operator killed ${fact.worker}'s process. Nothing in the database says the run was cancelled: it still reads running until its lease expires.`;
    case 'no-rescuer':
      return `${fact.queue} has no rescuer of its own here: its claim takes back runs whose lease expired, so there is nothing to run.`;
    case 'rescuer-stalled':
      return `The rescuer is stalled itself (since ${clockLabel(fact.sinceSeconds)}): it runs no statement, so no stuck run goes back to pending.`;
    case 'rescuer-read':
      return fact.runs.length > 0
        ? `The rescuer read the stuck runs: ${fact.runs.map(({ run, generation }) => `${run} (generation ${generation})`).join(', ')}. It locked nothing; its next steps write them back to pending, one at a time.`
        : 'The rescuer read the stuck runs and found none.';
    case 'rescued':
      return `The rescuer put run ${fact.run} back to pending: any worker's claim can take it again.`;
    case 'rescued-finished-run':
      return `The rescuer put run ${fact.run} back to pending although it was ${seen(fact.was)} by now: its write matched the run by id alone, and the run will be executed again.`;
    case 'rescue-missed':
      return `The rescuer's write of run ${fact.run} matched no row: the run is ${seen(fact.was)}, no longer the stuck attempt it read, so it is left alone.`;
    case 'rescue-failed':
      return `The rescuer's write of run ${fact.run} failed.`;
    case 'swept':
      return sweepSentence(fact);
    case 'swept-nothing':
      return "The rescuer's UPDATE found no running run whose lease had expired.";
    case 'sweep-failed':
      return "The rescuer's UPDATE failed.";
  }
}

/**
 * How the lab made PGlite do what a real server does, where it did not send the step's SQL as it is
 * (PGlite is one session that can never wait for a lock): shown beside the step's narration.
 */
export type EngineFact =
  /** A claim's open transaction parked with PREPARE TRANSACTION, so its row locks stay held. */
  | { kind: 'parked'; session: string; gid: string }
  /** A statement that would wait was not sent: a NOWAIT probe of the same rows found them locked. */
  | { kind: 'probed'; code: string; holders: string[] }
  /** A statement that waited, run once the lock was free; `after`: what the lab did next (it parked the claim). */
  | { kind: 'ran-after-wait'; replay: 'found-values' | 'found-rows' | 'statement'; after: EngineFact | null }
  | { kind: 'commit-prepared'; gid: string }
  | { kind: 'rollback-prepared'; gid: string };

/** An engine fact in words. Exhaustive, as sentence() is. */
export function narrateEngine(fact: EngineFact): string {
  switch (fact.kind) {
    case 'parked':
      return `PGlite has one session, so the lab parked ${fact.session}'s open transaction with PREPARE TRANSACTION '${fact.gid}': its row lock stays held while other workers run.`;
    case 'probed':
      return `PGlite never returns from a lock wait, so the lab did not send this statement: it ran the same row test with FOR UPDATE NOWAIT, got ${fact.code} (lock not available), and will run it when ${and(fact.holders)} finishes.`;
    case 'ran-after-wait':
      return `${ranAfterWait(fact.replay)}${fact.after ? ` ${narrateEngine(fact.after)}` : ''}`;
    case 'commit-prepared':
      return `On PGlite the parked transaction was committed with COMMIT PREPARED '${fact.gid}'.`;
    case 'rollback-prepared':
      return `The dead worker's open transaction rolled back (on PGlite: ROLLBACK PREPARED '${fact.gid}'), releasing its row lock.`;
  }
}

/** How a statement that waited was run once the lock was free. */
function ranAfterWait(replay: Extract<EngineFact, { kind: 'ran-after-wait' }>['replay']): string {
  switch (replay) {
    case 'found-values':
      return `PGlite cannot wait, so when the claim began to wait the lab read what its finder had found (the CTE's rows, the sub-select's value) and the runs its UPDATE matched; once the lock was free it ran the UPDATE with those values frozen in, on those runs only, re-checking its WHERE on their newest versions. That is what a real server's waiter does (EvalPlanQual): it does not take a fresh look.`;
    case 'found-rows':
      return `PGlite cannot wait, so the lab ran the claim again once the lock was free, first locking, in order, the rows it had found when it began to wait, up to the first that still qualifies. A real server's waiter does the same and keeps those locks until it commits, even on rows that no longer qualify; it would not see a run that became claimable while it waited.`;
    case 'statement':
      return `PGlite cannot wait, so the lab ran the statement again once the lock was free. A real server would have resumed the waiting statement instead, re-checking only the row it waited for.`;
  }
}

/** Some of a value's fields, at any depth: what a pattern asks of a fact. */
type Partly<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: Partly<T[K]> } : T;

/**
 * What a chapter, a question or a test asks of a step: a kind of fact, or a kind with some of its fields
 * (`{kind: 'write-missed', fencing: true}`). A kind that does not exist, or a field that kind does not
 * have, does not compile.
 */
export type FactPattern = StepFactKind | { [K in StepFactKind]: { kind: K } & Partly<Omit<Extract<StepFact, { kind: K }>, 'kind'>> }[StepFactKind];

function matchesPart(value: unknown, pattern: unknown): boolean {
  if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) return JSON.stringify(value) === JSON.stringify(pattern);
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([key, part]) => matchesPart((value as Record<string, unknown>)[key], part));
}

/** Whether one of these facts is what the pattern asks for. */
export function hasFact(facts: readonly StepFact[], pattern: FactPattern): boolean {
  return facts.some((fact) => (typeof pattern === 'string' ? fact.kind === pattern : matchesPart(fact, pattern)));
}
