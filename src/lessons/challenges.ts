/**
 * Be the scheduler: challenges the learner plays in the lab, in the spirit of The Deadlock Empire (you
 * are the scheduler and try to break the code). Each is judged from the trace of the run the app shows
 * (a pure function of its steps), on exactly the condition its goal states, with three hints of
 * increasing help. None is won by the scenario's own script, by a prefix of it or by one worker moving
 * alone: tests/unit/lesson-challenges.test.ts plays those against every challenge.
 */
import { findScenario } from '../scenarios';
import { listRuns, listWorkers } from '../sim/anomalies';
import { clockLabel, durationLabel } from '../sim/clock';
import { narrate } from '../sim/narration';
import type { Settings, Strategy, Trace, TraceStep } from '../sim/types';
import { ATOMIC_STRATEGY_IDS, STRATEGY_IDS, strategyDefinition } from '../strategies';
import { notPlayable, type PlayedWith, plural, stepLabel, tokensOfKind, verdict } from './challenge-judging';
import type { Challenge } from './types';

const NAIVE: Settings = { strategy: 'naive', fencing: false };
const CAS: Settings = { strategy: 'cas', fencing: true };
const ATOMIC: Settings = { strategy: 'skip-locked', fencing: true };
const ATOMIC_UNFENCED: Settings = { strategy: 'skip-locked', fencing: false };
const FOR_UPDATE: Settings = { strategy: 'for-update', fencing: true };
const NOWAIT: Settings = { strategy: 'nowait', fencing: true };
const TENANT_CAP: Settings = { strategy: 'tenant-cap', fencing: true };

const ATOMIC_CLAIMS: PlayedWith = { strategies: ATOMIC_STRATEGY_IDS, why: 'is about the atomic claim' };
const SELECT_THEN_UPDATE_IDS: readonly Strategy[] = STRATEGY_IDS.filter((id) => strategyDefinition(id).claim.shape === 'select-then-update');
const ANY_CLAIM: PlayedWith = { strategies: STRATEGY_IDS, why: 'is played with one of the lab’s claims' };

/** The paid model calls on a run (a resumed step was paid for when it was first issued). */
function paidCalls(trace: Trace, runId: number): TraceStep[] {
  return trace.steps.filter((step) => step.action === 'work' && !step.resumed && step.verdict === 'ok' && step.runId === runId);
}

function duplicateOf(trace: Trace, runId: number) {
  return trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution' && anomaly.runId === runId);
}

/** The first step at which a worker went from wanting to own this run to having claimed it. */
function claimOf(trace: Trace, actor: string, runId: number): TraceStep | undefined {
  return trace.steps.find(
    (step) =>
      step.actor === actor && step.verdict === 'ok' && step.runId === runId && step.workers.find((w) => w.id === actor)?.generation !== null && isClaim(step),
  );
}

function isClaim(step: TraceStep): boolean {
  return step.action === 'claim' || step.action === 'naive-update' || step.action === 'cas-claim';
}

// ---- 1. The naive race, away from the start --------------------------------------------------------

const doubleRun: Challenge = {
  id: 'double-run',
  title: 'Make run 124 execute twice',
  goal: 'Three workers and the naive claim (SELECT, then UPDATE). Get two workers to pay for model calls on run 124, while run 123, the oldest, is executed by one worker only.',
  lesson:
    "The naive claim breaks wherever two reads of the same run fall between one worker's SELECT and its UPDATE: not only at the start, and not only on the first run. A schedule where each worker writes before the next one reads looks safe, which is why this bug survives tests.",
  scenarioId: 'three-workers',
  settings: NAIVE,
  chapterId: 'select-then-update',
  hints: [
    'Every worker reads the oldest pending run. While run 123 is pending, that is the run everyone reads.',
    'Let one worker claim run 123 (its SELECT and its UPDATE) before anyone else reads. What does the next reader see?',
    'Try A, A; then B and C both read (B, C), both write (B, C) and both work (B, C).',
  ],
  solution: ['A', 'A', 'B', 'C', 'B', 'C', 'B', 'C'],
  judge(trace) {
    const early = notPlayable(trace, ['three-workers'], { strategies: ['naive'], why: 'is about the naive claim' });
    if (early || !trace) return early!;
    const first = duplicateOf(trace, 123);
    if (first) {
      return verdict(
        false,
        `${first.message} That is the race everyone finds first. This challenge wants run 124 executed twice and run 123 by one worker only: press Reset and let one worker claim run 123 alone.`,
        first.steps,
      );
    }
    const second = duplicateOf(trace, 124);
    if (second) {
      const calls = paidCalls(trace, 124).length;
      return verdict(
        true,
        `${listWorkers(second.workers)} both held a claim on run 124 and both paid for it (${plural(calls, 'model call')}), while run 123 had one owner. A had claimed run 123 alone; the two reads of run 124 only had to fall between one SELECT and its UPDATE.`,
        second.steps,
      );
    }
    const readers = new Set(trace.steps.filter((s) => s.action === 'select' && s.verdict === 'ok' && s.runId === 124).map((s) => s.actor));
    if (readers.size >= 2)
      return verdict(
        false,
        `${listWorkers([...readers].sort())} have read run 124 as pending. Keep going: both have to write their claim and pay for a model call.`,
      );
    return verdict(
      false,
      readers.size === 1
        ? 'One worker has read run 124. For a duplicate a second one has to read it before the first one writes.'
        : 'Nobody has read run 124 yet: a worker only reads it once run 123 is no longer pending.',
    );
  },
};

// ---- 2. The atomic claim with the clock still ------------------------------------------------------

const atomicRace: Challenge = {
  id: 'atomic-race',
  title: 'Take run 123 from A without moving the clock',
  goal: 'With the atomic claim, let A claim run 123 first. Then get B to pay for a model call on run 123, with the clock standing still (no +N steps) and no run executed twice.',
  lesson:
    "A claim is not a claim until it commits. While A's transaction is open its row lock keeps every other claim off run 123 (SKIP LOCKED passes over it, plain FOR UPDATE waits, NOWAIT fails), so there is no window to slip into. But when A's process dies before committing, Postgres sees its connection close and rolls the transaction back: the run is pending again at once, with no lease to wait out. (A machine that vanishes without closing its connection keeps the lock until the server notices, through idle_in_transaction_session_timeout or TCP keepalives.) After the commit, only the lease can free it.",
  scenarioId: 'race',
  settings: ATOMIC,
  chapterId: 'atomic-claim',
  hints: [
    'Once A has committed its claim, run 123 is free again only when A finishes it or its lease runs out, and a lease needs the clock.',
    'Before A commits, its claim is only an open transaction. What happens to an open transaction when its worker dies?',
    'Try A, crash:A, then B three times.',
  ],
  solution: ['A', 'crash:A', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['race'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const clockMoves = tokensOfKind(trace, ['advance']);
    const duplicate = trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution');
    if (clockMoves.length > 0) {
      return verdict(
        false,
        `Your schedule moves the clock (${clockMoves.join(', ')}). Once a lease runs out the claim rightly hands the run to another worker${duplicate ? ', which is what happened here' : ''}: that is a question for leases and fencing ("Make the atomic claim execute a run twice"). Keep the clock still.`,
        duplicate?.steps ?? [],
      );
    }
    if (duplicate) {
      return verdict(
        false,
        `The engine reports a duplicate with the clock standing still: ${duplicate.message} That should be impossible; please report this schedule: ${trace.schedule.join(', ')}.`,
        duplicate.steps,
      );
    }
    const byA = claimOf(trace, 'A', 123);
    const byB = claimOf(trace, 'B', 123);
    if (byB && (!byA || byB.index < byA.index)) {
      return verdict(false, 'B claimed run 123 before A did. The challenge is to take it from A: press Reset and let A claim first.', [byB.index]);
    }
    if (!byA) return verdict(false, 'A has not claimed run 123 yet: step A first.');
    const call = paidCalls(trace, 123).find((step) => step.actor === 'B' && step.index > byA.index);
    if (call && byB) {
      const end = trace.steps.find(
        (step) =>
          step.index > byA.index &&
          step.index < byB.index &&
          ((step.actor === 'A' && step.action === 'crash') || (step.action === 'kill' && step.runId === 123)),
      );
      const how = end
        ? `${end.action === 'crash' ? 'A crashed' : 'the operator killed A'} at ${stepLabel(end)} with its claim uncommitted`
        : "A's claim was undone";
      return verdict(
        true,
        `B paid for a model call on run 123 at ${stepLabel(call)}, with the clock still at ${clockLabel(call.clockSeconds)}: ${how}, so its transaction rolled back and run 123 was pending again when B claimed it (${stepLabel(byB)}). No run executed twice.`,
        [byA.index, ...(end ? [end.index] : []), byB.index, call.index],
      );
    }
    if (byB) return verdict(false, 'B owns run 123. Now let B pay for a model call on it.', [byB.index]);
    const overlap = trace.steps.find((step) => step.actor === 'B' && isClaim(step) && step.workers.some((w) => w.id === 'A' && w.phase === 'in-transaction'));
    if (overlap) {
      return verdict(
        false,
        `At ${stepLabel(overlap)} B claimed while A's claim transaction still held run 123: ${overlap.note} A locked row cannot be taken. Find a way for A to let go of it without committing.`,
        [overlap.index],
      );
    }
    return verdict(false, 'A has claimed run 123 and B has not got it. While A holds the claim, no other claim will take the run.');
  },
};

// ---- 3. Split ownership from a slow worker ---------------------------------------------------------

const splitOwnership: Challenge = {
  id: 'split-ownership',
  title: 'Cause split ownership without a pause',
  goal: 'With the atomic claim and fencing off, get a stale owner to commit a write after another worker has taken its run over. Nobody freezes or dies here: no pause:, crash: or kill: steps, only the workers and the clock.',
  lesson:
    'A correct claim is not enough: once a lease runs out under a worker that is merely slow, that worker still believes it owns the run, and nothing stops it writing. Only a write that checks the generation (fencing) keeps its result out: turn fencing on and replay, and the same write is rejected.',
  scenarioId: 'crash-orphan',
  settings: ATOMIC_UNFENCED,
  chapterId: 'fencing',
  hints: [
    'Split ownership needs two owners: the run has to be taken over while its first owner is still alive.',
    'Nobody heartbeats in this scenario. A model call that takes longer than the 60 s lease is enough: move the clock past the lease while A is mid-run.',
    'Try A, A, A, +61, B, B, then A once more.',
  ],
  solution: ['A', 'A', 'A', '+61', 'B', 'B', 'A'],
  judge(trace) {
    const early = notPlayable(trace, ['crash-orphan'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const forbidden = tokensOfKind(trace, ['pause', 'resume', 'crash', 'kill']);
    if (forbidden.length > 0) {
      return verdict(
        false,
        `Your schedule uses ${forbidden.join(', ')}. This one is played without freezing or killing anyone: a worker that is only slow is enough. Press Reset and use the workers and the clock.`,
      );
    }
    const split = trace.anomalies.find((anomaly) => anomaly.kind === 'split-ownership');
    if (split && !trace.settings.fencing) {
      return verdict(
        true,
        `${split.message} The unfenced write only checked that the run was running. Turn fencing on and replay: the same write is rejected.`,
        split.steps,
      );
    }
    const staleStep = trace.steps.find((step) => step.staleWrite !== null && step.verdict === 'rejected');
    if (trace.settings.fencing) {
      return staleStep
        ? verdict(
            false,
            `Fencing is on, so the stale write was rejected (${stepLabel(staleStep)}): ${staleStep.note} That is fencing doing its job. Turn it off to see what it prevents.`,
            [staleStep.index],
          )
        : verdict(false, 'Fencing is on: a stale write cannot commit. Turn fencing off for this challenge.');
    }
    const takeover = trace.steps.find((step) => step.actor !== 'A' && isClaim(step) && step.verdict === 'ok' && step.runId === 123);
    return takeover
      ? verdict(false, `${takeover.actor} took run 123 over at ${stepLabel(takeover)}. Now let its old owner write.`, [takeover.index])
      : verdict(false, 'No run has changed hands yet. A run is taken over only once its lease has expired.');
  },
};

// ---- 4. A durable cancel outlives its worker -------------------------------------------------------

const stickyCancel: Challenge = {
  id: 'sticky-cancel',
  title: 'Make a cancel survive a crash',
  goal: 'Cancel run 123, then crash A before it has noticed the request. Run 123 must still end up cancelled.',
  lesson:
    'A cancel stored in the row outlives the process that was meant to see it: whoever claims the run next reads cancel_requested and stops. A kill leaves nothing behind.',
  scenarioId: 'cancel-durable',
  settings: ATOMIC,
  chapterId: 'cancellation',
  hints: [
    'cancel:123 stores the request in the row; kill:123 only kills a process.',
    'A learns about the request at its next write. Crash it before that write, then wait for its lease to run out.',
    'Try A, A, A, cancel:123, crash:A, +61, then let B claim, commit and act.',
  ],
  solution: ['A', 'A', 'A', 'cancel:123', 'crash:A', '+61', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['cancel-durable', 'cancel-kill'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const lost = trace.anomalies.find((anomaly) => anomaly.kind === 'lost-cancel' && anomaly.runId === 123);
    if (lost) return verdict(false, `The cancel was lost: ${lost.message} Use cancel:123, which is stored in the row, rather than kill:123.`, lost.steps);
    const request = trace.steps.find((step) => step.action === 'cancel-request' && step.verdict === 'ok' && step.runId === 123);
    if (!request) return verdict(false, 'No cancel has been stored yet: add cancel:123 to the schedule.');
    const ack = trace.steps.find((step) => step.action === 'cancel-ack' && step.verdict === 'ok' && step.runId === 123);
    const deathBeforeAck = trace.steps.find(
      (step) => (step.action === 'crash' || step.action === 'kill') && step.index > request.index && (ack === undefined || step.index < ack.index),
    );
    const run = trace.finalRuns.find((row) => row.run_id === 123);
    if (run?.status === 'cancelled' && ack && deathBeforeAck && ack.actor !== deathBeforeAck.actor && ack.actor !== 'operator') {
      return verdict(
        true,
        `Run 123 ended cancelled by ${ack.actor} after ${narrate(deathBeforeAck.facts.slice(0, 1)).replace(/\.$/, '')}. The request outlived the crash because it lives in the row, and ${ack.actor}'s claim read it back.`,
        [request.index, deathBeforeAck.index, ack.index],
      );
    }
    if (run?.status === 'cancelled') {
      return verdict(
        false,
        'Run 123 is cancelled, but by the worker that was alive all along. Make it harder: crash A after the request and before A sees it.',
        ack ? [ack.index] : [],
      );
    }
    if (deathBeforeAck) return verdict(false, 'A is gone and the request is stored. Now let the lease run out and let B claim the run.');
    return verdict(false, 'The request is stored. Crash A before its next step, so that it never sees the request.');
  },
};

// ---- 5. A stuck worker keeps its lease -------------------------------------------------------------

const freeStuck: Challenge = {
  id: 'free-stuck',
  title: 'Free run 123 from a stuck worker',
  goal: 'A claims run 123 and gets stuck inside a model call, but keeps heartbeating, so its lease never runs out. Get B to own run 123 after A has claimed it.',
  lesson:
    'A heartbeat stops only when the worker stops. Here you had to stop A by hand; a real system needs a progress check (Module 09) to decide that a live worker is stuck.',
  scenarioId: 'stuck-heartbeat',
  settings: ATOMIC,
  chapterId: 'progress-vs-liveness',
  hints: [
    'As long as A renews its lease, no claim will match run 123.',
    'What stops the heartbeat? A crash, or a pause that outlasts the lease.',
    'Try A, A, +20, A, crash:A, +61, B.',
  ],
  solution: ['A', 'A', '+20', 'A', 'crash:A', '+61', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['stuck-heartbeat'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const byA = claimOf(trace, 'A', 123);
    const taken = trace.steps.find(
      (step) => step.actor === 'B' && step.action === 'claim' && step.verdict === 'ok' && step.workers.find((w) => w.id === 'B')?.runId === 123,
    );
    if (taken && (!byA || taken.index < byA.index)) {
      return verdict(false, 'B claimed run 123 before A ever had it. The puzzle is to free the run from a stuck A: press Reset and let A claim first.', [
        taken.index,
      ]);
    }
    if (taken) {
      const how = trace.steps.find((step) => step.actor === 'A' && (step.action === 'crash' || step.action === 'pause'));
      return verdict(true, `B took run 123 at ${stepLabel(taken)}${how ? `, after A ${how.action === 'crash' ? 'crashed' : 'froze'}` : ''}: ${taken.note}`, [
        taken.index,
      ]);
    }
    const stuck = trace.anomalies.find((anomaly) => anomaly.kind === 'stuck-while-heartbeating');
    if (stuck) return verdict(false, `${stuck.message} While that goes on, the lease never expires. What would stop the heartbeat?`, stuck.steps);
    return verdict(false, 'B does not own run 123 yet. A keeps its lease for as long as it renews it.');
  },
};

// ---- 6. The atomic claim and a lease that runs out -------------------------------------------------

const atomicDuplicate: Challenge = {
  id: 'atomic-duplicate',
  title: 'Make the atomic claim execute a run twice',
  goal: 'The claim that held in "Take run 123 from A", with fencing on, but now the clock is yours too. Get A and B both to pay for model calls on one run.',
  lesson:
    "A lease trades a stranded run for a possible duplicate: when it runs out under a worker that is still working, the claim hands the run out again. Fencing keeps the stale worker's writes out of the row, but it cannot take back the model calls already paid for. Heartbeats well inside the lease are what make this rare.",
  scenarioId: 'race',
  settings: ATOMIC,
  chapterId: 'lease',
  hints: [
    'The claim takes a pending run, or a running one whose lease has expired.',
    'A lease expires when its owner does not renew it in time, and the owner need not be dead: A renews only when it next moves.',
    'Try A, A, A, +61, then B, B, B.',
  ],
  solution: ['A', 'A', 'A', '+61', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['race'], { ...ATOMIC_CLAIMS, fencing: true });
    if (early || !trace) return early!;
    const duplicate = trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution');
    if (duplicate) {
      return verdict(
        true,
        `${duplicate.message} Fencing was on all along: it rejects any later write by the stale owner, but the model calls were paid before anything checked.`,
        duplicate.steps,
      );
    }
    const takeover = trace.steps.find(
      (step) => isClaim(step) && step.verdict === 'ok' && step.workers.some((w) => w.id !== step.actor && w.runId === step.runId && w.phase === 'owner'),
    );
    if (takeover)
      return verdict(
        false,
        `${takeover.actor} took run ${takeover.runId} over at ${stepLabel(takeover)} while its first owner still believed it owned it. Both owners have to pay for a model call on it.`,
        [takeover.index],
      );
    return verdict(false, 'No run has been handed out twice. While a lease is valid, no claim will take its run.');
  },
};

// ---- 7. A stored cancel that comes too late --------------------------------------------------------

const lateCancel: Challenge = {
  id: 'late-cancel',
  title: 'Lose a cancel that is stored in the row',
  goal: 'Use cancel:123 (the durable request, not kill:) and still have run 123 end done instead of cancelled. Nobody crashes.',
  lesson:
    "A cooperative cancel is seen only at a check. A request that arrives after the worker's last check loses to its completion, because the completing UPDATE does not look at cancel_requested. To let a cancel win that race, the completion itself has to refuse a row whose cancel_requested is set, and the worker has to handle the 0 rows.",
  scenarioId: 'cancel-durable',
  settings: ATOMIC,
  chapterId: 'cancellation',
  hints: [
    "A worker reads cancel_requested only where a statement returns it: its claim, each model call's write, each heartbeat.",
    "What does A's completion check? Look at the SQL of A's last step.",
    'Let A make all three model calls first (A five times), then cancel:123, then A.',
  ],
  solution: ['A', 'A', 'A', 'A', 'A', 'cancel:123', 'A'],
  judge(trace) {
    const early = notPlayable(trace, ['cancel-durable'], ANY_CLAIM);
    if (early || !trace) return early!;
    const forbidden = tokensOfKind(trace, ['kill', 'crash']);
    if (forbidden.length > 0)
      return verdict(
        false,
        `Your schedule uses ${forbidden.join(', ')}. Killing a worker loses a cancel too easily; here the request is stored and every worker stays alive.`,
      );
    const request = trace.steps.find((step) => step.action === 'cancel-request' && step.verdict === 'ok' && step.runId === 123);
    if (!request) return verdict(false, 'No cancel has been stored yet: add cancel:123 to the schedule.');
    const completed = trace.steps.find((step) => step.action === 'complete' && step.verdict === 'ok' && step.runId === 123 && step.index > request.index);
    if (completed) {
      return verdict(
        true,
        `The cancel was stored at ${stepLabel(request)}, yet ${completed.actor} marked run 123 done at ${stepLabel(completed)}: its completion write checks ${trace.settings.fencing ? 'the generation' : "that the run is 'running'"}, not cancel_requested, and it had made its last check before the request arrived.`,
        [request.index, completed.index],
      );
    }
    const ack = trace.steps.find((step) => step.action === 'cancel-ack' && step.verdict === 'ok' && step.runId === 123);
    if (ack)
      return verdict(
        false,
        `${ack.actor} saw the request and cancelled run 123 (${stepLabel(ack)}): the cancel won. Send it later, after the worker's last check.`,
        [request.index, ack.index],
      );
    return verdict(false, 'The request is stored and run 123 is not done yet. Whoever reads cancel_requested next will stop.');
  },
};

// ---- 8. A lock held open ---------------------------------------------------------------------------

/** The longest stretch of virtual time a worker spent blocked, with the steps where it began and ended. */
function longestWait(trace: Trace): { worker: string; holders: string[]; seconds: number; from: TraceStep; to: TraceStep } | null {
  const since = new Map<string, TraceStep>();
  let best: ReturnType<typeof longestWait> = null;
  for (const step of trace.steps) {
    for (const worker of step.workers) {
      if (worker.phase !== 'blocked') {
        since.delete(worker.id);
        continue;
      }
      const from = since.get(worker.id) ?? step;
      since.set(worker.id, from);
      const seconds = step.clockSeconds - from.clockSeconds;
      if (!best || seconds > best.seconds) best = { worker: worker.id, holders: worker.blockedOn, seconds, from, to: step };
    }
  }
  return best;
}

const longWait: Challenge = {
  id: 'long-wait',
  title: 'Keep B waiting 30 s for a lock',
  goal: "With plain FOR UPDATE, make B wait on A's row lock while at least 30 s pass on the clock.",
  lesson:
    'A claim transaction left open keeps its row locked for as long as it stays open, and with plain FOR UPDATE every other claimer queues behind it: by default Postgres has no lock timeout (lock_timeout is 0). That is why a claim commits at once and the long work happens outside its transaction. SKIP LOCKED would have passed over the row.',
  scenarioId: 'lock-wait',
  settings: FOR_UPDATE,
  chapterId: 'lock-modes',
  hints: [
    "B waits only while A holds a lock: between A's claim and its commit.",
    'Clock steps (+N) can be played while B waits, and A does not have to commit.',
    'Try A, B, +30.',
  ],
  solution: ['A', 'B', '+30'],
  judge(trace) {
    const early = notPlayable(trace, ['lock-wait'], { strategies: ['for-update'], why: 'is about plain FOR UPDATE, the claim that waits' });
    if (early || !trace) return early!;
    const wait = longestWait(trace);
    if (!wait) return verdict(false, "Nobody has waited for a lock yet. A worker waits when it claims a row another worker's open claim holds.");
    const span = [wait.from.index, wait.to.index];
    if (wait.seconds >= 30) {
      return verdict(
        true,
        `${wait.worker} waited on ${listWorkers(wait.holders)}'s row lock from ${clockLabel(wait.from.clockSeconds)} to ${clockLabel(wait.to.clockSeconds)}: ${durationLabel(wait.seconds)} of virtual time with nothing to do, and nothing would have stopped it waiting longer.`,
        span,
      );
    }
    return verdict(
      false,
      `${wait.worker} has waited ${durationLabel(wait.seconds)} so far (${stepLabel(wait.from)} to ${stepLabel(wait.to)}). Move the clock while it still waits.`,
      span,
    );
  },
};

// ---- 9. An orphan nobody rescues -------------------------------------------------------------------

const stranded: Challenge = {
  id: 'stranded',
  title: 'Strand a run under a dead owner',
  goal: 'With compare-and-set, crash A once it has claimed run 123 and let its lease run out. Then have B look for work: B must pass over run 123, whose lease has expired, and take run 124.',
  lesson:
    "A lease helps only if some claim looks at it. The select-then-update claims read only pending runs, so a run whose owner died stays 'running' for ever: an orphan nobody rescues. The lab's atomic claims also take running runs whose lease has expired.",
  scenarioId: 'race',
  settings: CAS,
  chapterId: 'orphan-reclaim',
  hints: [
    'A crash leaves the row as it was: running, owned by A, with a lease that will run out.',
    "What does the claim's SELECT look for? Read its WHERE.",
    'Try A, A, crash:A, +61, B.',
  ],
  solution: ['A', 'A', 'crash:A', '+61', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['race'], {
      strategies: SELECT_THEN_UPDATE_IDS,
      why: 'is about a claim that begins with a SELECT of pending runs (the atomic claims take expired leases, and would rescue run 123)',
    });
    if (early || !trace) return early!;
    const orphan = trace.anomalies.find((anomaly) => anomaly.kind === 'stranded-run' && anomaly.runId === 123);
    const claimA = claimOf(trace, 'A', 123);
    const lease = findScenario('race')!.leaseSeconds;
    const expiresAt = claimA ? claimA.clockSeconds + lease : null;
    const lookAfter =
      expiresAt === null
        ? undefined
        : trace.steps.find(
            (step) => step.actor === 'B' && step.action === 'select' && step.verdict === 'ok' && step.runId === 124 && step.clockSeconds > expiresAt,
          );
    if (orphan && lookAfter && expiresAt !== null) {
      return verdict(
        true,
        `At ${clockLabel(lookAfter.clockSeconds)}, past the end of A's lease (${clockLabel(expiresAt)}), B's SELECT read run 124 and passed over run 123. ${orphan.message}`,
        [...orphan.steps, lookAfter.index],
      );
    }
    if (!claimA) return verdict(false, 'A has not claimed run 123 yet: A reads it, then claims it.');
    const lookedEarly = trace.steps.find((step) => step.actor === 'B' && step.action === 'select' && step.verdict === 'ok' && step.clockSeconds <= expiresAt!);
    if (lookedEarly)
      return verdict(
        false,
        `B looked for work at ${clockLabel(lookedEarly.clockSeconds)}, while A's lease on run 123 was still valid (until ${clockLabel(expiresAt!)}). Press Reset and let the lease run out first.`,
        [lookedEarly.index],
      );
    if (!trace.steps.some((step) => step.actor === 'A' && step.action === 'crash')) return verdict(false, 'A is alive and owns run 123. Crash it.');
    const clock = trace.steps.at(-1)!.clockSeconds;
    if (clock <= expiresAt!) return verdict(false, `A is dead; its lease on run 123 runs until ${clockLabel(expiresAt!)}. Move the clock past it.`);
    return verdict(false, "A's lease on run 123 has expired. Now let B look for work.");
  },
};

// ---- 10. The naive claim's good luck ---------------------------------------------------------------

const luckyNaive: Challenge = {
  id: 'lucky-naive',
  title: 'Let the naive claim get lucky',
  goal: 'With the naive claim, finish all three runs, each by a different worker, with no run executed twice and no stale write.',
  lesson:
    "The naive claim passes every run in which no worker reads between another one's SELECT and UPDATE. Its bug is in the timing, not in the code path, so a test that happens to schedule workers politely passes. A claim has to be right for every interleaving, not for the ones you tried.",
  scenarioId: 'three-workers',
  settings: NAIVE,
  chapterId: 'race',
  hints: [
    "The naive claim goes wrong only when a second worker reads a run between the first one's SELECT and UPDATE.",
    'A worker that has written its claim is safe to follow: the next reader sees the next pending run.',
    'Let each worker claim before the next one reads: A, A, then B, B, then C, C; then let each work and complete.',
  ],
  solution: ['A', 'A', 'B', 'B', 'C', 'C', 'A', 'A', 'B', 'B', 'C', 'C'],
  judge(trace) {
    const early = notPlayable(trace, ['three-workers'], { strategies: ['naive'], why: 'is about the naive claim' });
    if (early || !trace) return early!;
    const bad = trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution' || anomaly.kind === 'split-ownership');
    if (bad)
      return verdict(
        false,
        `${bad.message} The naive claim was unlucky this time: press Reset and schedule so that nobody reads a run between another worker's SELECT and UPDATE.`,
        bad.steps,
      );
    const completions = trace.steps.filter((step) => step.action === 'complete' && step.verdict === 'ok' && step.runId !== null);
    const finishers = new Set(completions.map((step) => step.actor));
    const runs = findScenario('three-workers')!.runs.length;
    if (completions.length === runs && finishers.size === runs) {
      return verdict(
        true,
        `${completions.map((step) => `${step.actor} finished run ${step.runId}`).join(', ')}: every run once, no anomaly, with the claim that broke in "Make run 124 execute twice".`,
        completions.map((step) => step.index),
      );
    }
    if (completions.length > 0 && finishers.size < completions.length)
      return verdict(false, 'One worker has finished more than one run: each run has to be finished by a different worker.');
    return verdict(false, `${plural(completions.length, 'run')} of ${runs} finished, no anomaly so far. Keep going.`);
  },
};

// ---- 11. NOWAIT does not look past a locked row ----------------------------------------------------

const nowaitGivesUp: Challenge = {
  id: 'nowait-gives-up',
  title: 'Make NOWAIT give up while a run is free',
  goal: 'With FOR UPDATE NOWAIT, make B give up looking for work while run 124 is still pending.',
  lesson:
    'NOWAIT does not wait and does not skip: the claim tries to lock the oldest candidate and fails at once (55P03) if someone holds it, even when a free run sits right behind it. A worker that retries a few times and gives up leaves free work undone. That is why queues claim with SKIP LOCKED.',
  scenarioId: 'lock-wait',
  settings: NOWAIT,
  chapterId: 'lock-modes',
  hints: [
    'NOWAIT does not wait for a locked row: the claim fails at once and the worker tries again, up to three times.',
    'Which row does the claim try to lock? The oldest candidate, whether or not someone holds it.',
    'Try A, then B three times.',
  ],
  solution: ['A', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['lock-wait'], { strategies: ['nowait'], why: 'is about FOR UPDATE NOWAIT' });
    if (early || !trace) return early!;
    const quit = trace.steps.find(
      (step) => step.actor !== 'clock' && step.actor !== 'operator' && step.workers.find((w) => w.id === step.actor)?.phase === 'gave-up',
    );
    if (quit) {
      // Free: pending in the committed row and locked by no open claim (a run A holds uncommitted reads pending too).
      const locked = new Set(quit.locks.flatMap((lock) => lock.runIds));
      const free = quit.runs.filter((run) => run.status === 'pending' && !locked.has(run.run_id)).map((run) => run.run_id);
      const failures = trace.steps.filter((step) => step.actor === quit.actor && step.action === 'claim' && step.verdict === 'error');
      if (free.length > 0) {
        return verdict(
          true,
          `${quit.actor} gave up at ${stepLabel(quit)} after ${plural(failures.length, 'failed claim')}, while ${listRuns(free)} ${free.length === 1 ? 'was' : 'were'} free all along: each claim tried to lock the run another worker held and failed instead of moving on.`,
          [...failures.map((step) => step.index), quit.index],
        );
      }
      return verdict(false, `${quit.actor} gave up, but no run was pending any more: it had nothing left to take. Give up earlier, while run 124 is free.`, [
        quit.index,
      ]);
    }
    const failed = trace.steps.filter((step) => step.action === 'claim' && step.verdict === 'error');
    if (failed.length > 0)
      return verdict(
        false,
        `${plural(failed.length, 'claim')} failed with 55P03 so far. A worker gives up after three failed claims.`,
        failed.map((step) => step.index),
      );
    return verdict(false, 'No claim has failed yet. A NOWAIT claim fails when the row it tries to lock is held by an open claim.');
  },
};

// ---- 12. A live worker loses its lease -------------------------------------------------------------

const lostLease: Challenge = {
  id: 'lost-lease',
  title: 'Make a live worker lose its lease',
  goal: "A renews its 60 s lease every 30 s. Without pausing, crashing or killing it, make one of A's heartbeats fail because B has taken run 123 over.",
  lesson:
    'A heartbeat interval is a promise the worker has to keep: renewing is a write the worker makes, so a worker that does not get round to it for longer than the lease loses the lease while alive. The failed renewal (0 rows) is its signal to stop; a worker that ignored it would be the stale owner fencing exists for.',
  scenarioId: 'heartbeat',
  settings: ATOMIC,
  chapterId: 'heartbeat',
  hints: [
    'A heartbeats only when it moves: the clock can run ahead of it.',
    "If more than 60 s pass between two of A's renewals, its lease has expired, and the claim takes expired leases.",
    'Try A, A, A, +61, B, B, then A.',
  ],
  solution: ['A', 'A', 'A', '+61', 'B', 'B', 'A'],
  judge(trace) {
    const early = notPlayable(trace, ['heartbeat'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const forbidden = tokensOfKind(trace, ['pause', 'resume', 'crash', 'kill']);
    if (forbidden.length > 0)
      return verdict(false, `Your schedule uses ${forbidden.join(', ')}. Here A stays alive and awake: press Reset and use the workers and the clock.`);
    const failed = trace.steps.find((step) => {
      if (step.actor !== 'A' || step.action !== 'heartbeat' || step.outcome?.status !== 'ok' || step.outcome.rowCount !== 0) return false;
      const owner = step.runs.find((run) => run.run_id === step.runId)?.lease_owner;
      return owner !== null && owner !== undefined && owner !== 'A';
    });
    if (failed) {
      const owner = failed.runs.find((run) => run.run_id === failed.runId)!.lease_owner;
      const takeover = claimOf(trace, owner!, failed.runId!);
      return verdict(
        true,
        `A's heartbeat at ${stepLabel(failed)} matched 0 rows: ${owner} had taken run ${failed.runId} over${takeover ? ` at ${stepLabel(takeover)}` : ''}. A was alive all along; it just renewed too late.`,
        [...(takeover ? [takeover.index] : []), failed.index],
      );
    }
    const takeover = trace.steps.find((step) => step.actor === 'B' && step.action === 'claim' && step.verdict === 'ok' && step.runId === 123);
    if (takeover) return verdict(false, `B took run 123 over at ${stepLabel(takeover)}. Now let A try to renew its lease.`, [takeover.index]);
    return verdict(false, 'A still holds its lease. A lease runs out only if more than 60 s pass without a renewal.');
  },
};

// ---- 13. A crash after the claim commits ------------------------------------------------------------

const orphanRescue: Challenge = {
  id: 'orphan-rescue',
  title: 'Crash A between its claim and its first model call, then rescue the run',
  goal: 'With the atomic claim, crash A after its claim of run 123 has committed but before it pays for a model call. Then get B to finish run 123, paying for every model call on it itself.',
  lesson:
    'Where a worker dies decides what happens to its run. Inside the claim transaction, Postgres rolls the claim back and the run is free at once. After the commit, the row says running, owned by A, and nothing in the database knows A is dead: the run is an orphan until its lease runs out, and only a claim that also takes expired leases rescues it, with the next generation.',
  scenarioId: 'crash-orphan',
  settings: ATOMIC,
  chapterId: 'orphan-reclaim',
  hints: [
    "A's claim is two steps: the claim statement, then its commit. Crash A after the second.",
    'After the crash, run 123 still says running under A. When will a claim take it?',
    'Try A, A, crash:A, +61, then B five times.',
  ],
  solution: ['A', 'A', 'crash:A', '+61', 'B', 'B', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['crash-orphan'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const commit = trace.steps.find((step) => step.actor === 'A' && step.action === 'commit' && step.verdict === 'ok' && step.runId === 123);
    const crash = trace.steps.find((step) => step.actor === 'A' && step.action === 'crash');
    if (crash && (!commit || crash.index < commit.index)) {
      return verdict(
        false,
        `A crashed at ${stepLabel(crash)} before its claim committed, so Postgres rolled the claim back and run 123 was free at once. That was "Take run 123 from A"; here crash A after its commit: press Reset.`,
        [crash.index],
      );
    }
    const paidByA = paidCalls(trace, 123).find((step) => step.actor === 'A');
    if (paidByA) {
      return verdict(false, `A paid for a model call on run 123 at ${stepLabel(paidByA)}. Crash A before its first model call: press Reset.`, [paidByA.index]);
    }
    if (!commit) return verdict(false, 'A has not committed a claim of run 123 yet: step A twice (claim, commit).');
    if (!crash) return verdict(false, `A's claim of run 123 committed at ${stepLabel(commit)}. Now crash A.`, [commit.index]);
    const done = trace.steps.find((step) => step.actor === 'B' && step.action === 'complete' && step.verdict === 'ok' && step.runId === 123);
    const byB = claimOf(trace, 'B', 123);
    if (done && byB) {
      const calls = paidCalls(trace, 123);
      return verdict(
        true,
        `A died at ${stepLabel(crash)} holding a committed claim: run 123 stayed running under a dead owner until its lease ran out. B claimed it at ${stepLabel(byB)} (${clockLabel(byB.clockSeconds)}) and finished it, paying for all ${plural(calls.length, 'model call')} itself.`,
        [commit.index, crash.index, byB.index, done.index],
      );
    }
    if (byB) return verdict(false, `B reclaimed run 123 at ${stepLabel(byB)}. Let B finish it.`, [byB.index]);
    const tried = trace.steps.find((step) => step.actor === 'B' && step.action === 'claim' && step.verdict === 'empty');
    if (tried)
      return verdict(
        false,
        `B found nothing to claim at ${stepLabel(tried)}: A's lease on run 123 was still valid, dead owner or not. Move the clock past it.`,
        [tried.index],
      );
    return verdict(false, 'A is dead and run 123 still says running under A. Get B to take it.');
  },
};

// ---- 14. A heartbeat keeps a stuck run ----------------------------------------------------------------

const STUCK_FOR_SECONDS = 120;

const stuckAlive: Challenge = {
  id: 'stuck-alive',
  title: 'Keep a stuck run alive for two minutes',
  goal: `A claims run 123 and gets stuck in a model call that never returns, but its heartbeat renews the lease every 20 s. With A holding run 123 for ${STUCK_FOR_SECONDS} s with no progress, have B look for work and find none.`,
  lesson:
    'A lease tells a claimer that the owner is alive, not that it is getting anywhere. A worker whose heartbeat runs apart from its work keeps a stuck run for ever, while the queue looks healthy and other workers sit idle. Deciding that a live worker is stuck needs a progress check, not a lease.',
  scenarioId: 'stuck-heartbeat',
  settings: ATOMIC,
  chapterId: 'progress-vs-liveness',
  hints: [
    'A renews its lease only when it moves: every step of A after its claim is a heartbeat.',
    'A lease of 60 s outlives any clock move of 60 s or less after a renewal.',
    'Try A, A, then +20, A six times, then B.',
  ],
  solution: ['A', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['stuck-heartbeat'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const forbidden = tokensOfKind(trace, ['pause', 'resume', 'crash', 'kill']);
    if (forbidden.length > 0)
      return verdict(false, `Your schedule uses ${forbidden.join(', ')}. Here A stays alive and stuck: press Reset and use the workers and the clock.`);
    const byA = claimOf(trace, 'A', 123);
    const byB = claimOf(trace, 'B', 123);
    if (byB)
      return verdict(
        false,
        `B took run 123 at ${stepLabel(byB)}: A's lease ran out, so A had gone more than 60 s without a renewal. In this level A keeps heartbeating: press Reset and step A within each 60 s.`,
        [byB.index],
      );
    if (!byA) return verdict(false, 'A has not claimed run 123 yet.');
    const idle = trace.steps.find(
      (step) =>
        step.actor === 'B' &&
        step.action === 'claim' &&
        step.verdict === 'empty' &&
        step.clockSeconds - byA.clockSeconds >= STUCK_FOR_SECONDS &&
        step.runs.some((run) => run.run_id === 123 && run.status === 'running' && run.lease_owner === 'A'),
    );
    if (idle) {
      const beats = trace.steps.filter((step) => step.actor === 'A' && step.action === 'heartbeat' && step.verdict === 'ok').length;
      return verdict(
        true,
        `At ${stepLabel(idle)}, ${durationLabel(idle.clockSeconds - byA.clockSeconds)} after A claimed run 123, B found no work: A had renewed its lease ${plural(beats, 'time')} and not made a single step of progress.`,
        [byA.index, idle.index],
      );
    }
    const clock = trace.steps.at(-1)!.clockSeconds;
    return verdict(
      false,
      clock - byA.clockSeconds >= STUCK_FOR_SECONDS
        ? `A has held run 123 for ${durationLabel(clock - byA.clockSeconds)}. Now let B look for work.`
        : `A has held run 123 for ${durationLabel(clock - byA.clockSeconds)} so far; keep it going to ${STUCK_FOR_SECONDS} s.`,
    );
  },
};

// ---- 15. A cancel lost to a kill ----------------------------------------------------------------------

const killedCancel: Challenge = {
  id: 'killed-cancel',
  title: 'Cancel run 123 by killing its worker, and still see it done',
  goal: 'Kill A to stop run 123 before A has paid for a single model call. Then let the run be worked on and marked done anyway.',
  lesson:
    'Killing the process is not a cancel: nothing in the row says the run should stop, so once the lease expires the next claim picks it up and does all the work again. A durable cancel is a fact in the database (cancel_requested) that every worker checks.',
  scenarioId: 'cancel-kill',
  settings: ATOMIC,
  chapterId: 'cancellation',
  hints: [
    "The operator's kill:123 stops A; what does it change in run 123's row?",
    'A killed worker holds its lease until it expires, and then the claim takes the run like any other.',
    'Try A, A, kill:123, +61, then B five times.',
  ],
  solution: ['A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['cancel-kill'], ATOMIC_CLAIMS);
    if (early || !trace) return early!;
    const kill = trace.steps.find((step) => step.action === 'kill' && step.runId === 123);
    if (!kill) return verdict(false, 'Run 123 has not been killed yet: let A claim it, then kill its worker (kill:123).');
    const before = paidCalls(trace, 123).filter((step) => step.index < kill.index);
    if (before.length > 0)
      return verdict(
        false,
        `A paid for a model call on run 123 at ${stepLabel(before[0]!)}, before the kill. Kill A before its first model call: press Reset.`,
        [before[0]!.index, kill.index],
      );
    const after = paidCalls(trace, 123).filter((step) => step.index > kill.index);
    const done = trace.steps.find((step) => step.action === 'complete' && step.verdict === 'ok' && step.runId === 123 && step.index > kill.index);
    if (done && after.length > 0) {
      return verdict(
        true,
        `The kill at ${stepLabel(kill)} stopped A but left run 123 running in the row. Once the lease ran out, ${done.actor} claimed it and paid for ${plural(after.length, 'model call')} on a run the operator had meant to cancel, and marked it done (${stepLabel(done)}).`,
        [kill.index, ...after.map((step) => step.index), done.index],
      );
    }
    if (after.length > 0) return verdict(false, `${plural(after.length, 'model call')} paid on run 123 since the kill. Keep going.`);
    return verdict(false, `Run 123 still says running under A after the kill at ${stepLabel(kill)}. Who will take it, and when?`, [kill.index]);
  },
};

// ---- 16. A reclaim beats a late completion --------------------------------------------------------------

const lateCompletion: Challenge = {
  id: 'late-completion',
  title: "Finish run 123 under A's frozen feet",
  goal: "A freezes at 15:00:10 for 90 s while it owns run 123. With fencing on, get B to finish run 123 before A wakes, so that A's completion, when it comes, is the one rejected.",
  lesson:
    "A frozen worker wakes believing what it believed when it froze. Whoever reclaimed the run meanwhile may already have finished it; the late completion checks its generation (fencing) and the run's status, matches 0 rows, and the run's result is the one the new owner wrote. Without fencing, the late write would have overwritten it.",
  scenarioId: 'paused-worker',
  settings: ATOMIC,
  chapterId: 'fencing',
  hints: [
    "A's freeze is planned: it starts when the clock passes 15:00:10 and lasts 90 s.",
    "A's lease runs out at 15:01:00; after that B can reclaim run 123, and B's work takes four steps.",
    'Try A, A, A, +10, +51, B four times, +40, then A.',
  ],
  solution: ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', 'B', '+40', 'A'],
  judge(trace) {
    const early = notPlayable(trace, ['paused-worker'], { ...ATOMIC_CLAIMS, fencing: true });
    if (early || !trace) return early!;
    const doneByB = trace.steps.find((step) => step.actor === 'B' && step.action === 'complete' && step.verdict === 'ok' && step.runId === 123);
    const late = trace.steps.find((step) => step.actor === 'A' && step.action === 'complete' && step.runId === 123 && step.verdict !== 'ok');
    const doneByA = trace.steps.find((step) => step.actor === 'A' && step.action === 'complete' && step.verdict === 'ok' && step.runId === 123);
    if (doneByA)
      return verdict(false, `A finished run 123 itself at ${stepLabel(doneByA)}: nobody took it over. Press Reset and let the freeze outlast A's lease.`);
    if (late && doneByB && doneByB.index < late.index) {
      return verdict(
        true,
        `B finished run 123 at ${stepLabel(doneByB)} while A was frozen; A woke and its completion at ${stepLabel(late)} matched 0 rows: ${late.note}`,
        [doneByB.index, late.index],
      );
    }
    if (late)
      return verdict(false, `A's late completion was rejected at ${stepLabel(late)}, but B had not finished run 123 yet. Get B to finish first.`, [late.index]);
    if (doneByB) return verdict(false, `B finished run 123 at ${stepLabel(doneByB)}. Now wake A and let it try to complete.`, [doneByB.index]);
    const byB = claimOf(trace, 'B', 123);
    if (byB) return verdict(false, `B reclaimed run 123 at ${stepLabel(byB)}. Let B finish it before A wakes.`, [byB.index]);
    return verdict(false, 'B has not taken run 123 over. It can once A is frozen and its lease has run out.');
  },
};

// ---- 17. A rescuer takes a job that is still running (a production queue) ------------------------------

const rescueLiveWork: Challenge = {
  id: 'rescue-live-work',
  title: 'Rescue a job that is still running',
  goal: "Under River, A's job runs past RescueStuckJobsAfter (1 h). Get the rescuer to put run 123 back to pending while A is still working on it, before A completes it, so that B runs it too.",
  lesson:
    "A rescuer that calls a job stuck by its running time alone cannot tell a slow job from a dead one: it hands a live job to another worker, and the work is done twice. River's fix for #1302 makes the rescuer's write re-check the attempt it read, which stops it overwriting a completion; it does not make a slow job look alive. A lease its worker renews with heartbeats does.",
  scenarioId: 'incident-river-1302',
  settings: { strategy: 'river', fencing: false },
  chapterId: 'production-queues',
  hints: [
    "The rescuer is stepped by the operator's menu (Rescue): its first step reads the stuck jobs, its next puts one back to pending.",
    "A's job counts as stuck once the clock passes 16:00:00. After its first three steps A has claimed, committed and worked; its next step would complete the job.",
    'Try A, A, A, +3601, rescue, rescue, then B three times.',
  ],
  solution: ['A', 'A', 'A', '+3601', 'rescue', 'rescue', 'B', 'B', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['incident-river-1302'], { strategies: ['river'], fencing: false, why: "is about River's rescuer" });
    if (early || !trace) return early!;
    const rescued = trace.steps.find((step) => step.action === 'rescue' && step.verdict === 'ok' && step.runId === 123);
    const doneByA = trace.steps.find((step) => step.actor === 'A' && step.action === 'complete' && step.verdict === 'ok' && step.runId === 123);
    if (doneByA && (!rescued || doneByA.index < rescued.index)) {
      return verdict(
        false,
        `A completed run 123 at ${stepLabel(doneByA)}, before the rescuer put it back: that is River #1302's race, not this one. Press Reset and let the rescuer act while A still works.`,
        [doneByA.index],
      );
    }
    if (!rescued) return verdict(false, 'The rescuer has not put run 123 back yet. It only calls a job stuck once the clock passes 16:00:00.');
    const workByB = trace.steps.find(
      (step) => step.actor === 'B' && step.action === 'work' && step.verdict === 'ok' && step.runId === 123 && step.index > rescued.index,
    );
    if (workByB) {
      return verdict(
        true,
        `The rescuer put run 123 back to pending at ${stepLabel(rescued)} while A was still working on it, and B paid for a model call on it at ${stepLabel(workByB)}: one job, run twice.`,
        [rescued.index, workByB.index],
      );
    }
    const byB = claimOf(trace, 'B', 123);
    if (byB) return verdict(false, `B claimed run 123 at ${stepLabel(byB)}. Let it work.`, [byB.index]);
    return verdict(false, `The rescuer put run 123 back to pending at ${stepLabel(rescued)}, with A still on it. Now let B take it.`, [rescued.index]);
  },
};

// ---- 18. Two claims at once break a cap counted inside the claim ------------------------------------------

/** The runs of a tenant running under one of the workers, as a step's table shows them (committed rows). */
function runningUnder(step: TraceStep, tenant: string, workers: readonly string[]) {
  return step.runs.filter((run) => run.tenant === tenant && run.status === 'running' && run.lease_owner !== null && workers.includes(run.lease_owner));
}

const BETA_RUN = 124;

const tenantCapRace: Challenge = {
  id: 'tenant-cap-race',
  title: 'Break the tenant cap',
  goal: `Each tenant may have one run running: the claim counts the tenant's running runs and passes over a tenant at its cap. Get two of acme's runs running at once, one under A and one under B, while beta's run ${BETA_RUN} still waits.`,
  lesson:
    "A cap counted inside the claim is write skew: each claim counts acme's running runs in the rows committed when it starts, and neither sees the other's claim until it commits. Both see acme below its cap, SKIP LOCKED sends the second to acme's next run, and both commit, while beta's run waits for a worker acme was never meant to take. REPEATABLE READ does not stop it (the two claims write different rows). The fix puts the count and the claim in order: claims that take a lock first, one at a time (the backpressure lab's each take a transaction-level advisory lock, so each count sees every claim committed before it), or a lock or counter per tenant as production queues keep per key; or SERIALIZABLE, where PostgreSQL fails one of the two claims with 40001 and the worker retries. This page runs every claim at READ COMMITTED; the links below step through the same two claims recorded on PostgreSQL at REPEATABLE READ and at SERIALIZABLE.",
  recordings: ['tenant-cap-repeatable-read', 'tenant-cap-serializable'],
  scenarioId: 'tenant-backlog',
  settings: TENANT_CAP,
  chapterId: 'backpressure',
  hints: [
    "While run 120's lease lasts (to 15:00:30), acme is at its cap and every claim passes over acme's runs. Move the clock past it first.",
    "A claim counts running runs in the rows committed when it starts. A claim that has not committed yet is not counted by anyone else's.",
    'Try +31, A, B, A, B.',
  ],
  solution: ['+31', 'A', 'B', 'A', 'B'],
  judge(trace) {
    const early = notPlayable(trace, ['tenant-backlog'], { strategies: ['tenant-cap'], why: 'is about a per-tenant cap counted inside the claim' });
    if (early || !trace) return early!;
    const both = trace.steps.find((step) => {
      const owners = new Set(runningUnder(step, 'acme', ['A', 'B']).map((run) => run.lease_owner));
      return owners.size === 2 && step.runs.some((run) => run.run_id === BETA_RUN && run.status === 'pending');
    });
    if (both) {
      const [first, second] = ['A', 'B']
        .map((worker) => {
          const run = runningUnder(both, 'acme', [worker])[0]!.run_id;
          return { worker, run, claim: claimOf(trace, worker, run)! };
        })
        .sort((a, b) => a.claim.index - b.claim.index) as [
        { worker: string; run: number; claim: TraceStep },
        { worker: string; run: number; claim: TraceStep },
      ];
      const firstCommit = trace.steps.find(
        (step) => step.actor === first.worker && step.action === 'commit' && step.runId === first.run && step.index > first.claim.index,
      );
      const overlapped = firstCommit !== undefined && firstCommit.index > second.claim.index;
      return verdict(
        true,
        overlapped
          ? `${second.worker}'s claim at ${stepLabel(second.claim)} counted acme's running runs while ${first.worker}'s claim of run ${first.run} (${stepLabel(first.claim)}) had not committed, saw acme below its cap, and took run ${second.run}. Both committed: at ${stepLabel(both)} acme runs two at once while beta's run ${BETA_RUN} waits.`
          : `At ${stepLabel(both)} acme runs two at once (runs ${first.run} and ${second.run}) while beta's run ${BETA_RUN} waits.`,
        [first.claim.index, second.claim.index, ...(firstCommit ? [firstCommit.index] : []), both.index],
      );
    }
    const last = trace.steps.at(-1);
    const beta = last?.runs.find((run) => run.run_id === BETA_RUN);
    if (beta && beta.status !== 'pending') {
      const took = claimOf(trace, beta.lease_owner ?? '', BETA_RUN);
      return verdict(
        false,
        `${took ? `${took.actor} took beta's run ${BETA_RUN} at ${stepLabel(took)}: its claim saw acme at its cap and passed over acme's runs, as the cap means it to` : `Beta's run ${BETA_RUN} is ${beta.status}`}. This level wants acme on both workers while run ${BETA_RUN} waits: press Reset.`,
        took ? [took.index] : [],
      );
    }
    // A claim whose transaction is still open: its row is locked, and nobody else's count sees it yet.
    const open = last?.locks.flatMap((hold) => hold.runIds.filter((id) => id !== BETA_RUN).map((runId) => ({ worker: hold.session, runId }))) ?? [];
    if (open.length > 0) {
      const { worker, runId } = open[0]!;
      const claim = claimOf(trace, worker, runId);
      return verdict(
        false,
        `${worker}'s claim of acme's run ${runId}${claim ? ` (${stepLabel(claim)})` : ''} has not committed yet. Keep going.`,
        claim ? [claim.index] : [],
      );
    }
    const acme = last ? runningUnder(last, 'acme', ['A', 'B']) : [];
    if (acme.length === 1) {
      const run = acme[0]!;
      const claim = claimOf(trace, run.lease_owner!, run.run_id);
      return verdict(
        false,
        `${run.lease_owner} runs acme's run ${run.run_id}${claim ? ` (claimed at ${stepLabel(claim)})` : ''}, and its claim has committed: every claim from now on counts it, and acme is at its cap.`,
        claim ? [claim.index] : [],
      );
    }
    return verdict(false, "No run of acme's is running under A or B yet. Run 120 holds acme at its cap while its lease lasts, to 15:00:30.");
  },
};

export const CHALLENGES: readonly Challenge[] = [
  doubleRun,
  luckyNaive,
  atomicRace,
  longWait,
  nowaitGivesUp,
  atomicDuplicate,
  lostLease,
  freeStuck,
  stranded,
  splitOwnership,
  stickyCancel,
  lateCancel,
  orphanRescue,
  stuckAlive,
  killedCancel,
  lateCompletion,
  rescueLiveWork,
  tenantCapRace,
];

export function findChallenge(id: string): Challenge | undefined {
  return CHALLENGES.find((challenge) => challenge.id === id);
}
