/**
 * Be the scheduler: challenges the learner plays in the lab. Each is judged from the trace of the run
 * the app currently shows (a pure function of the trace), with three hints of increasing help.
 */
import { findScenario } from '../scenarios';
import { listWorkers } from '../sim/anomalies';
import { isClockToken } from '../sim/schedule';
import type { Settings, Trace, TraceStep } from '../sim/types';
import { ATOMIC_STRATEGY_IDS } from '../strategies';
import { baseScenarioId } from './trace-read';
import type { Challenge, Judgement } from './types';

const NAIVE: Settings = { strategy: 'naive', fencing: false };
const ATOMIC: Settings = { strategy: 'skip-locked', fencing: true };
const ATOMIC_UNFENCED: Settings = { strategy: 'skip-locked', fencing: false };

const ATOMIC_STRATEGIES: readonly string[] = ATOMIC_STRATEGY_IDS;

function verdict(won: boolean, message: string, steps: number[] = []): Judgement {
  return { won, message, steps };
}

function noTrace(trace: Trace | null, scenarioIds: readonly string[] | null): Judgement | null {
  if (!trace) return verdict(false, 'Open the challenge in the lab and play a schedule; your run is checked as you go.');
  if (scenarioIds && !scenarioIds.includes(baseScenarioId(trace.scenario))) {
    const wanted = scenarioIds.map((id) => `"${findScenario(id)?.title ?? id}"`).join(' or ');
    return verdict(false, `This run is of another scenario. The challenge is played on ${wanted}: use "Open in the lab".`);
  }
  return null;
}

function stepLabel(step: TraceStep): string {
  return `step ${step.index + 1}`;
}

function sameSchedule(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}

const doubleRun: Challenge = {
  id: 'double-run',
  title: 'Make run 123 execute twice',
  goal: 'With the naive claim (SELECT, then UPDATE), schedule workers A and B so that both pay for model calls on run 123. Build the interleaving yourself, one step at a time; it can be done in six steps.',
  lesson: 'The naive claim is broken by timing alone: both reads happen before either write, and the blind UPDATE lets both claims through.',
  scenarioId: 'race',
  settings: NAIVE,
  chapterId: 'select-then-update',
  hints: [
    'A worker on the naive claim takes two steps to claim: first it reads (SELECT), then it writes (UPDATE).',
    'What if both workers read before either of them writes?',
    'Try A, B, A, B: both read run 123, then both write it. One more step for each worker and both have paid for the same run.',
  ],
  solution: ['A', 'B', 'A', 'B', 'A', 'B'],
  judge(trace) {
    const early = noTrace(trace, ['race']);
    if (early || !trace) return early!;
    if (trace.settings.strategy !== 'naive') {
      return verdict(false, 'This challenge is about the naive claim: set the claim back to "Naive SELECT then UPDATE".');
    }
    const duplicate = trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution' && anomaly.runId === 123);
    if (duplicate) {
      if (sameSchedule(trace.schedule, findScenario('race')?.script ?? [])) {
        return verdict(false, "That is the scenario's own script. Be the scheduler: start from an empty schedule and build the interleaving yourself.");
      }
      const size = trace.schedule.length;
      const calls = trace.steps.filter((step) => step.action === 'work' && !step.resumed && step.runId === 123).length;
      return verdict(
        true,
        `${listWorkers(duplicate.workers)} both held a claim on run 123 and both paid for it: ${calls} model call${calls === 1 ? '' : 's'} paid so far, with two owners. You used ${size} step${size === 1 ? '' : 's'}${size <= 6 ? ', as few as it takes.' : '; it can be done in 6.'}`,
        duplicate.steps,
      );
    }
    const reads = trace.steps.filter((step) => step.action === 'select' && step.verdict === 'ok' && step.runId === 123);
    if (reads.length < 2) {
      return verdict(false, 'No duplicate yet. For both workers to claim run 123, both have to read it as pending first.');
    }
    return verdict(false, 'Both workers have read run 123. Keep going: a duplicate shows up once both have claimed it and each has paid for a model call.');
  },
};

const atomicRace: Challenge = {
  id: 'atomic-race',
  title: 'Try to make the atomic claim double-execute',
  goal: 'Same two workers, but with the atomic claim. Use any interleaving, pause, resume or crash a worker, cancel or kill a run: try to make a run execute twice. One rule: keep the clock still (no +N steps). The challenge is complete when the two claims overlap in time (one worker claims while the other\'s claim transaction is still open) and you have seen what happens.',
  lesson:
    'The first claim locks the row it chose and holds the lock until its transaction ends. A second claim cannot take a locked row: SKIP LOCKED passes over it, plain FOR UPDATE waits and then re-checks it, NOWAIT fails. Choosing and taking are one statement, so there is no window to slip into. What the atomic claim cannot prevent is a lease running out under a live worker; that is the job of heartbeats and fencing.',
  scenarioId: 'race',
  settings: ATOMIC,
  chapterId: 'atomic-claim',
  hints: [
    'The naive claim broke because of a gap between reading and writing. Where is the gap in the atomic claim?',
    'After a worker\'s claim step its transaction is still open: it holds the row lock until its next step (commit). Schedule the other worker in between.',
    'Play A, then B. Then try the same with the claim set to plain FOR UPDATE or NOWAIT, and with pause:A or crash:A between them.',
  ],
  solution: ['A', 'B'],
  judge(trace) {
    const early = noTrace(trace, null);
    if (early || !trace) return early!;
    if (!ATOMIC_STRATEGIES.includes(trace.settings.strategy)) {
      return verdict(false, 'This challenge is about the atomic claim: choose FOR UPDATE SKIP LOCKED (or plain FOR UPDATE, or NOWAIT).');
    }
    const clockMoves = trace.schedule.filter(isClockToken);
    const duplicate = trace.anomalies.find((anomaly) => anomaly.kind === 'duplicate-execution');
    if (clockMoves.length > 0) {
      return verdict(
        false,
        `Your schedule moves the clock (${clockMoves.join(', ')}). If a lease runs out while its worker is still busy, the claim rightly hands the run to another worker${
          duplicate ? ' — which is what happened here' : ''
        }. That is a problem for leases and fencing, not for the claim: keep the clock still.`,
        duplicate?.steps ?? [],
      );
    }
    if (duplicate) {
      return verdict(false, `The engine reports a duplicate with the clock standing still: ${duplicate.message} That should be impossible; please report this schedule: ${trace.schedule.join(', ')}.`, duplicate.steps);
    }
    const overlap = trace.steps.find(
      (step) => step.action === 'claim' && step.workers.some((worker) => worker.id !== step.actor && worker.phase === 'in-transaction'),
    );
    if (!overlap) {
      return verdict(false, 'No run executed twice, but your claims never overlapped. Get one worker to claim while the other has claimed and not yet committed.');
    }
    const holder = overlap.workers.find((worker) => worker.id !== overlap.actor && worker.phase === 'in-transaction')!;
    return verdict(
      true,
      `At ${stepLabel(overlap)} ${overlap.actor} claimed while ${holder.id}'s claim transaction still held run ${holder.runId}: ${overlap.note} Still no run executed twice.`,
      [overlap.index],
    );
  },
};

const splitOwnership: Challenge = {
  id: 'split-ownership',
  title: 'Cause split ownership',
  goal: 'With the atomic claim, get a stale owner to commit a write after another worker has taken its run over. You control the clock and the pause.',
  lesson: 'A correct claim is not enough: once a lease expires under a frozen worker, that worker still believes it owns the run. Only a write that checks the generation (fencing) stops its result from landing.',
  scenarioId: 'paused-worker',
  settings: ATOMIC_UNFENCED,
  chapterId: 'fencing',
  hints: [
    'Split ownership needs two owners: the run has to be reclaimed while its first owner is not looking.',
    'A freezes at 15:00:10 and wakes 90 s later; its lease is 60 s. Move the clock past the lease, let B claim and commit, then let A wake and write.',
    'Fencing must be off: with it on, the stale write is rejected. Try A, A, A, +10, +51, B, B, B, +40, A.',
  ],
  solution: ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A'],
  judge(trace) {
    const early = noTrace(trace, null);
    if (early || !trace) return early!;
    if (trace.settings.strategy === 'naive') {
      return verdict(false, 'With the naive claim, split ownership is just the race. Use the atomic claim: the point is that a correct claim is not enough.');
    }
    const split = trace.anomalies.find((anomaly) => anomaly.kind === 'split-ownership');
    if (split) {
      return verdict(true, `${split.message} The unfenced write only checked that the run was running. Turn fencing on and replay: the same write is rejected.`, split.steps);
    }
    const rejected = trace.anomalies.find((anomaly) => anomaly.kind === 'stale-write-rejected');
    if (trace.settings.fencing) {
      return rejected
        ? verdict(false, `Fencing is on, so the stale write was rejected: ${rejected.message} That is fencing doing its job. Turn it off to see what it prevents.`, rejected.steps)
        : verdict(false, 'Fencing is on: a stale write cannot commit. Turn fencing off for this challenge.');
    }
    const reclaimed = trace.steps.some((step) => step.action === 'claim' && step.verdict === 'ok' && step.note.includes('took the run over'));
    return reclaimed
      ? verdict(false, 'A run was taken over. Now let its old owner wake up (or move again) and write.')
      : verdict(false, 'No run has changed hands yet. A run is only taken over once its lease has expired.');
  },
};

const stickyCancel: Challenge = {
  id: 'sticky-cancel',
  title: 'Make a cancel survive a crash',
  goal: 'Cancel run 123, then crash A before it has noticed the request. Run 123 must still end up cancelled.',
  lesson: 'A cancel stored in the row outlives the process that was meant to see it: whoever claims the run next reads cancel_requested and stops. A kill leaves nothing behind.',
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
    const early = noTrace(trace, ['cancel-durable', 'cancel-kill']);
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
      return verdict(true, `Run 123 ended cancelled by ${ack.actor} after ${deathBeforeAck.note.split('.')[0]}. The request outlived the crash because it lives in the row, and ${ack.actor}'s claim read it back.`, [
        request.index,
        deathBeforeAck.index,
        ack.index,
      ]);
    }
    if (run?.status === 'cancelled') {
      return verdict(false, 'Run 123 is cancelled, but by the worker that was alive all along. Make it harder: crash A after the request and before A sees it.', ack ? [ack.index] : []);
    }
    if (deathBeforeAck) return verdict(false, 'A is gone and the request is stored. Now let the lease run out and let B claim the run.');
    return verdict(false, 'The request is stored. Crash A before its next step, so that it never sees the request.');
  },
};

const freeStuck: Challenge = {
  id: 'free-stuck',
  title: 'Free run 123 from a stuck worker',
  goal: 'A is stuck inside a model call but keeps heartbeating, so its lease never runs out. Get B to own run 123.',
  lesson: 'A heartbeat stops only when the worker stops. Here you had to stop A by hand; a real system needs a progress check (Module 09) to decide that a live worker is stuck.',
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
    const early = noTrace(trace, ['stuck-heartbeat']);
    if (early || !trace) return early!;
    const taken = trace.steps.find((step) => step.actor === 'B' && step.action === 'claim' && step.verdict === 'ok' && step.workers.find((w) => w.id === 'B')?.runId === 123);
    if (taken) {
      const how = trace.steps.find((step) => step.actor === 'A' && (step.action === 'crash' || step.action === 'pause'));
      return verdict(true, `B took run 123 at ${stepLabel(taken)}${how ? `, after A ${how.action === 'crash' ? 'crashed' : 'froze'}` : ''}: ${taken.note}`, [taken.index]);
    }
    const stuck = trace.anomalies.find((anomaly) => anomaly.kind === 'stuck-while-heartbeating');
    if (stuck) return verdict(false, `${stuck.message} While that goes on, the lease never expires. What would stop the heartbeat?`, stuck.steps);
    return verdict(false, 'B does not own run 123 yet. A keeps its lease for as long as it renews it.');
  },
};

export const CHALLENGES: readonly Challenge[] = [doubleRun, atomicRace, splitOwnership, stickyCancel, freeStuck];

export function findChallenge(id: string): Challenge | undefined {
  return CHALLENGES.find((challenge) => challenge.id === id);
}
