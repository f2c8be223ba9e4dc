/**
 * Predict, then run. Each generator turns a seed into a concrete question: a scenario (often a variant
 * with other run ids, lease lengths or faults), settings, a schedule, a prompt and choices. The answer is
 * never stored: `answerFrom` reads it from the trace the real engine produces for that schedule.
 *
 * Every schedule here is valid as written (no token is skipped), whichever way the run turns out, so the
 * app can play it with `onInapplicable: 'error'`.
 */
import { cancelDurable } from '../scenarios/cancel-durable';
import { crashOrphan } from '../scenarios/crash-orphan';
import { heartbeat } from '../scenarios/heartbeat';
import { incidentGraphile169 } from '../scenarios/incident-graphile-169';
import { incidentSolidQueue589 } from '../scenarios/incident-solid-queue-589';
import { lockWait } from '../scenarios/lock-wait';
import { pausedWorker } from '../scenarios/paused-worker';
import { race } from '../scenarios/race';
import { stuckHeartbeat } from '../scenarios/stuck-heartbeat';
import { tenantBacklog } from '../scenarios/tenant-backlog';
import { threeWorkers } from '../scenarios/three-workers';
import { RECORDING_PLANS } from '../recordings';
import { defaultSettings } from '../scenarios';
import { clockLabel, durationLabel } from '../sim/clock';
import { ISOLATION_WORDS, PGLITE_HAS_ONE_SESSION } from '../sim/isolation';
import { hasFact } from '../sim/narration';
import { between, pick, seededRandom, shuffled } from '../sim/random';
import type { RunSeed, Scenario, Settings, Strategy, Trace, TraceStep } from '../sim/types';
import { LAB_STRATEGY_IDS, QUEUE_STRATEGY_IDS, strategyDefinition } from '../strategies';
import { finalRun, hasAnomaly, holdsClaim, noteLines, scenarioVariant, stepsAtToken, workerAtEnd } from './trace-read';
import type { ChapterId, Choice, PredictGenerator, PredictInstance } from './types';

const RUN_IDS = [123, 124, 207, 311, 418, 502, 615, 733, 808, 921];

function distinctIds(random: () => number, count: number): number[] {
  const pool = [...RUN_IDS];
  const out: number[] = [];
  while (out.length < count) {
    const index = Math.floor(random() * pool.length);
    out.push(pool.splice(index, 1)[0]!);
  }
  return out;
}

function other(worker: 'A' | 'B'): 'A' | 'B' {
  return worker === 'A' ? 'B' : 'A';
}

function anomalyLines(trace: Trace): string[] {
  return trace.anomalies.map((anomaly) => `The lab flagged ${anomaly.kind}: ${anomaly.message}`);
}

function safeTag(key: string): string {
  return key.replace(/[^A-Za-z0-9.-]+/g, '.');
}

interface Draft {
  key: string;
  facts: string[];
  scenario: Scenario;
  settings: Settings;
  schedule: string[];
  prompt: string;
  choices: Choice[];
  answerFrom(trace: Trace): string | null;
  explain(trace: Trace): string[];
  focusTokenIndex: number | null;
}

function generator(id: string, title: string, chapterId: ChapterId, base: Scenario, draft: (random: () => number) => Draft): PredictGenerator {
  return {
    id,
    title,
    chapterId,
    baseScenarioId: base.id,
    generate(seed: number): PredictInstance {
      const made = draft(seededRandom(seed));
      return { ...made, generatorId: id, seed, baseScenarioId: base.id };
    },
  };
}

const RACE_STRATEGIES: Strategy[] = LAB_STRATEGY_IDS.filter((id) => strategyDefinition(id).raceQuestion);

const inWords = (strategy: Strategy) => strategyDefinition(strategy).inWords;

/** Two workers poll together: which run does the second one end up with? */
const claimRace = generator('claim-race', 'Two workers poll at once', 'race', race, (random) => {
  const strategy = pick(random, RACE_STRATEGIES);
  const first = pick(random, ['A', 'B'] as const);
  const second = other(first);
  const [older, newer] = distinctIds(random, 2) as [number, number];
  const generation = between(random, 2, 40);
  const runs: RunSeed[] = [
    { runId: older, createdAtSeconds: -120, leaseGeneration: generation },
    { runId: newer, createdAtSeconds: -60, leaseGeneration: between(random, 0, 9) },
  ];
  const key = `claim-race/${strategy}/${first}/${older}/${newer}`;
  const schedule = [first, second, first, second, second, second];
  const scenario = scenarioVariant(race, safeTag(key), { runs, defaultStrategy: strategy, defaultFencing: false });
  return {
    key,
    facts: [`claim: ${inWords(strategy)}`, `${first} moves first`, `run ${older} is older than run ${newer}`],
    scenario,
    settings: { strategy, fencing: false },
    schedule,
    prompt: `Workers ${first} and ${second} poll for work at the same moment using ${inWords(strategy)}. Run ${older} was created a minute before run ${newer}. The scheduler plays ${schedule.join(', ')}. When it stops, which run is ${second} working on?`,
    choices: [
      ...[older, newer].sort((x, y) => x - y).map((runId) => ({ id: `run-${runId}`, label: `Run ${runId}` })),
      { id: 'none', label: 'No run: it found nothing to claim' },
    ],
    answerFrom(trace) {
      const worker = workerAtEnd(trace, second);
      return holdsClaim(worker) ? `run-${worker!.runId}` : 'none';
    },
    explain(trace) {
      const mine = workerAtEnd(trace, second);
      const theirs = workerAtEnd(trace, first);
      const same = holdsClaim(mine) && holdsClaim(theirs) && mine!.runId === theirs!.runId;
      const summary = same
        ? `Both workers hold run ${mine!.runId}: nothing made the second claim fail.`
        : holdsClaim(mine)
          ? `${second} ended up on run ${mine!.runId}, ${first} on run ${theirs?.runId ?? '–'}: each run has one owner.`
          : `${second} holds no run at the end.`;
      return [summary, ...noteLines(trace.steps), ...anomalyLines(trace)];
    },
    focusTokenIndex: 3,
  };
});

/** The claims with a locking clause, in the question's order: the one that waits, the one that fails, the one that skips. */
const LOCK_STRATEGIES: Strategy[] = (['waits', 'errors', 'skips'] as const).flatMap((when) =>
  LAB_STRATEGY_IDS.filter((id) => strategyDefinition(id).lock?.whenLocked === when),
);
const lockClause = (strategy: Strategy) => strategyDefinition(strategy).lock!.clause;

/** One worker holds the row lock; what does the other's claim do? */
const lockMode = generator('lock-mode', 'Wait, fail or skip?', 'lock-modes', lockWait, (random) => {
  const strategy = pick(random, LOCK_STRATEGIES);
  const first = pick(random, ['A', 'B'] as const);
  const second = other(first);
  const runCount = pick(random, [1, 2]);
  const [locked, spare] = distinctIds(random, 2) as [number, number];
  const runs: RunSeed[] = [{ runId: locked, createdAtSeconds: -120, leaseGeneration: between(random, 2, 40) }];
  if (runCount === 2) runs.push({ runId: spare, createdAtSeconds: -60 });
  const key = `lock-mode/${strategy}/${first}/${runCount}/${locked}/${spare}`;
  const scenario = scenarioVariant(lockWait, safeTag(key), { runs, defaultStrategy: strategy });
  const schedule = [first, second];
  const choices: Choice[] = [
    { id: 'wait', label: `It waits until ${first}'s transaction ends` },
    { id: 'error', label: 'It fails at once with an error' },
  ];
  if (runCount === 2) choices.push({ id: 'other', label: `It claims run ${spare}` });
  choices.push({ id: 'nothing', label: 'It returns no row: nothing to claim' }, { id: 'same', label: `It claims run ${locked} as well` });
  return {
    key,
    facts: [`lock clause: ${lockClause(strategy)}`, runCount === 1 ? 'one run' : 'two runs', `${first} claims first`],
    scenario,
    settings: { strategy, fencing: true },
    schedule,
    prompt: `${first} has just run the claim: it locked run ${locked} and its transaction is still open. ${
      runCount === 2 ? `Run ${spare} is pending too (it is newer).` : `Run ${locked} is the only run.`
    } Now ${second} runs the same claim, written with ${lockClause(strategy)}. What does ${second}'s statement do?`,
    choices,
    answerFrom(trace) {
      const step = stepsAtToken(trace, 1).find((s) => s.actor === second);
      if (!step) return null;
      if (step.verdict === 'blocked') return 'wait';
      if (step.verdict === 'error') return 'error';
      if (step.verdict === 'empty') return 'nothing';
      if (step.verdict !== 'ok') return null;
      const worker = step.workers.find((w) => w.id === second);
      return worker?.runId === locked ? 'same' : worker?.runId === spare ? 'other' : null;
    },
    explain(trace) {
      const step = stepsAtToken(trace, 1).find((s) => s.actor === second);
      const locks = trace.steps[0]?.locks.map((lock) => `${lock.session} holds a row lock on run ${lock.runIds.join(', ')}`) ?? [];
      return [...locks, ...noteLines(step ? [trace.steps[0]!, step] : trace.steps), ...(step?.engineNote ? [`How the lab did it: ${step.engineNote}`] : [])];
    },
    focusTokenIndex: 1,
  };
});

/** A worker crashes holding a claim; when can another take the run, and with which generation? */
const leaseExpiry = generator('lease-expiry', "When does the crashed worker's run come back?", 'lease', crashOrphan, (random) => {
  const lease = pick(random, [30, 45, 60, 90, 120]);
  const when = pick(random, ['after-commit', 'before-commit'] as const);
  const wait = Math.max(5, pick(random, [lease - 15, lease, lease + 1, lease + 20]));
  const generation = between(random, 3, 40);
  const [runId] = distinctIds(random, 1) as [number];
  const key = `lease-expiry/${lease}/${when}/${wait}/${generation}/${runId}`;
  const scenario = scenarioVariant(crashOrphan, safeTag(key), {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: generation }],
    leaseSeconds: lease,
  });
  const schedule = when === 'after-commit' ? ['A', 'A', 'crash:A', `+${wait}`, 'B'] : ['A', 'crash:A', `+${wait}`, 'B'];
  return {
    key,
    facts: [
      `lease ${lease} s`,
      when === 'after-commit' ? 'A crashes after committing its claim' : 'A crashes inside its claim transaction',
      `B polls ${wait} s later`,
    ],
    scenario,
    settings: { strategy: 'skip-locked', fencing: true },
    schedule,
    prompt: `Run ${runId} is at generation ${generation}. A claims it with a ${lease} s lease and ${
      when === 'after-commit' ? 'commits the claim, then crashes' : 'crashes before its claim transaction commits'
    }. ${wait} s later B runs the atomic claim. What does B get?`,
    choices: [
      { id: `gen-${generation + 1}`, label: `Run ${runId}, as generation ${generation + 1}` },
      { id: `gen-${generation + 2}`, label: `Run ${runId}, as generation ${generation + 2}` },
      { id: 'nothing', label: 'Nothing: the run is still leased to A' },
      { id: 'wait', label: "B waits for A's row lock" },
    ],
    answerFrom(trace) {
      const step = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'B');
      if (!step) return null;
      if (step.verdict === 'blocked') return 'wait';
      if (step.verdict === 'empty') return 'nothing';
      const b = step.workers.find((w) => w.id === 'B');
      return step.verdict === 'ok' && b?.runId === runId ? `gen-${b.generation}` : null;
    },
    explain(trace) {
      const claim = trace.steps.find((s) => s.actor === 'A' && s.action === 'claim');
      const expires = claim?.workers.find((w) => w.id === 'A')?.leaseExpiresAtSeconds ?? null;
      const crash = trace.steps.find((s) => s.action === 'crash');
      const last = trace.steps.at(-1);
      const lines: string[] = [];
      if (crash && hasFact(crash.facts, 'transaction-rolled-back')) {
        lines.push(`A's claim never committed, so the crash rolled it back: run ${runId} went straight back to pending at generation ${generation}.`);
      } else if (expires !== null && last) {
        lines.push(
          `A's lease ran until ${clockLabel(expires)}; B looked at ${clockLabel(last.clockSeconds)}. The claim only takes a running run whose lease_expires_at < now(): ${
            expires < last.clockSeconds ? 'it had expired.' : 'it had not (at the very second of expiry it still counts).'
          }`,
        );
      }
      return [...lines, ...noteLines(trace.steps)];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** Does the heartbeat interval keep the lease alive until the next renewal? */
const heartbeatGap = generator('heartbeat-gap', 'Is the heartbeat often enough?', 'heartbeat', heartbeat, (random) => {
  const lease = pick(random, [30, 45, 60, 90]);
  const interval = pick(random, [Math.round(lease / 3), Math.round(lease / 2), lease - 5, lease + 10, lease * 2]);
  const [runId] = distinctIds(random, 1) as [number];
  const key = `heartbeat-gap/${lease}/${interval}/${runId}`;
  const scenario = scenarioVariant(heartbeat, safeTag(key), {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: between(random, 3, 40) }],
    leaseSeconds: lease,
    heartbeatSeconds: interval,
    workSteps: 20,
  });
  const schedule = ['A', 'A', `+${interval}`, 'A', `+${interval}`, 'A', `+${interval - 1}`, 'B'];
  const pollAt = 3 * interval - 1;
  return {
    key,
    facts: [`lease ${lease} s`, `heartbeat every ${interval} s`],
    scenario,
    settings: { strategy: 'skip-locked', fencing: true },
    schedule,
    prompt: `A works on run ${runId} with a ${lease} s lease and renews it every ${interval} s. B polls for work at ${clockLabel(pollAt)}, one second before A's third renewal is due. Does B take run ${runId}?`,
    choices: [
      { id: 'takes', label: `Yes: B claims run ${runId} while A is still working on it` },
      { id: 'nothing', label: 'No: B finds nothing to claim' },
    ],
    answerFrom(trace) {
      const step = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'B');
      if (!step) return null;
      if (step.verdict === 'empty') return 'nothing';
      return step.verdict === 'ok' && step.workers.find((w) => w.id === 'B')?.runId === runId ? 'takes' : null;
    },
    explain(trace) {
      const renewals = trace.steps.filter((s) => s.actor === 'A' && s.action === 'heartbeat' && s.verdict === 'ok');
      const lastRenewal = renewals.at(-1);
      const until = lastRenewal?.workers.find((w) => w.id === 'A')?.leaseExpiresAtSeconds ?? null;
      const lines = [
        `A renewed ${renewals.length} times${lastRenewal ? `, last at ${clockLabel(lastRenewal.clockSeconds)}` : ''}${until !== null ? `, which moved the lease to ${clockLabel(until)}` : ''}. B looked at ${clockLabel(pollAt)}.`,
        interval < lease
          ? `An interval shorter than the lease means a renewal always lands before expiry, as long as the worker is not held up for longer than lease − interval = ${lease - interval} s.`
          : `An interval of ${interval} s with a ${lease} s lease leaves a window after every expiry in which anyone may take the run from a healthy worker.`,
      ];
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock'))];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** Heartbeats without progress: stuck, crashed or frozen, who gets the run? */
const stuckOrDead = generator('stuck-or-dead', 'Stuck, crashed or frozen?', 'progress-vs-liveness', stuckHeartbeat, (random) => {
  const condition = pick(random, ['stuck', 'crashed', 'paused'] as const);
  const lease = pick(random, [30, 60]);
  const interval = lease / 3;
  const [runId] = distinctIds(random, 1) as [number];
  const key = `stuck-or-dead/${condition}/${lease}/${runId}`;
  const scenario = scenarioVariant(stuckHeartbeat, safeTag(key), {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: between(random, 3, 40) }],
    leaseSeconds: lease,
    heartbeatSeconds: interval,
  });
  const step = `+${interval}`;
  const schedule =
    condition === 'stuck'
      ? ['A', 'A', step, 'A', step, 'A', step, 'A', '+15', 'B']
      : ['A', 'A', condition === 'crashed' ? 'crash:A' : 'pause:A', `+${3 * interval}`, '+15', 'B'];
  const what = {
    stuck: `A's model call hangs forever, but its heartbeat keeps running every ${interval} s`,
    crashed: "A's process crashes",
    paused: "A's whole process freezes (a long stop-the-world pause) and stays frozen",
  }[condition];
  return {
    key,
    facts: [condition, `lease ${lease} s`, `heartbeat every ${interval} s`],
    scenario,
    settings: { strategy: 'skip-locked', fencing: true },
    schedule,
    prompt: `A claims run ${runId} (lease ${lease} s, heartbeat every ${interval} s). Right after, ${what}. B polls at ${clockLabel(3 * interval + 15)}. Does B get run ${runId}?`,
    choices: [
      { id: 'yes', label: `Yes: B reclaims run ${runId}` },
      { id: 'no', label: 'No: B finds nothing to claim' },
    ],
    answerFrom(trace) {
      const b = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'B');
      if (!b) return null;
      if (b.verdict === 'empty') return 'no';
      return b.verdict === 'ok' ? 'yes' : null;
    },
    explain(trace) {
      const run = finalRun(trace, runId);
      const lines = [`At the end run ${runId} is ${run?.status ?? '?'}, owned by ${run?.lease_owner ?? 'nobody'}, with progress ${run?.progress ?? '?'}.`];
      if (hasAnomaly(trace, 'stuck-while-heartbeating')) {
        lines.push(
          'The lab flagged stuck-while-heartbeating: the lease stays fresh, so no lease-based rescue will ever happen. Only a progress check (a deadline on progress, not on liveness) catches this.',
        );
      }
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock'))];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** A frozen worker wakes and writes: does its stale write land? */
const fencingWrite = generator('fencing-write', 'Does the stale write commit?', 'fencing', pausedWorker, (random) => {
  const lease = pick(random, [30, 45, 60]);
  const pause = Math.max(6, pick(random, [lease - 20, lease - 8, lease + 15, lease + 40]));
  const fencing = pick(random, [true, false]);
  const generation = between(random, 3, 40);
  const [runId] = distinctIds(random, 1) as [number];
  const key = `fencing-write/${lease}/${pause}/${fencing ? 'on' : 'off'}/${generation}/${runId}`;
  const scenario = scenarioVariant(pausedWorker, safeTag(key), {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: generation }],
    leaseSeconds: lease,
    heartbeatSeconds: null,
    workSteps: 1,
    faults: [{ kind: 'pause', worker: 'A', atSeconds: 10, forSeconds: pause }],
    defaultFencing: fencing,
  });
  const schedule = ['A', 'A', 'A', '+10', `+${pause - 5}`, 'B', 'B', '+5', 'A'];
  const guard = fencing ? 'the fenced statement (… AND lease_generation = $2)' : "the unfenced statement (… AND status = 'running')";
  return {
    key,
    facts: [`lease ${lease} s`, `A frozen for ${pause} s`, `fencing ${fencing ? 'on' : 'off'}`],
    scenario,
    settings: { strategy: 'skip-locked', fencing },
    schedule,
    prompt: `A claims run ${runId} and receives generation ${generation + 1}; its lease is ${lease} s and it does not heartbeat. At ${clockLabel(10)} A freezes for ${pause} s. B polls at ${clockLabel(pause + 5)}. When A wakes it writes its result with ${guard}. What happens to A's write?`,
    choices: [
      { id: 'alone', label: 'It commits, and A was the only owner all along' },
      { id: 'split', label: 'It commits although B owns the run now: split ownership' },
      { id: 'rejected', label: 'It is rejected: the UPDATE matches 0 rows' },
      { id: 'waits', label: "It waits for B's row lock" },
    ],
    answerFrom(trace) {
      const write = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'A' && s.sqlId !== null);
      if (!write) return null;
      if (write.verdict === 'rejected') return 'rejected';
      if (write.verdict === 'blocked') return 'waits';
      if (write.verdict !== 'ok') return null;
      return hasAnomaly(trace, 'split-ownership') ? 'split' : 'alone';
    },
    explain(trace) {
      const b = trace.steps.find((s) => s.actor === 'B' && s.action === 'claim');
      const reclaimed = b?.verdict === 'ok';
      const lines = [
        reclaimed
          ? `A's lease ran out at ${clockLabel(lease)}, so B's claim at ${clockLabel(pause + 5)} took the run over as generation ${b!.workers.find((w) => w.id === 'B')?.generation}.`
          : `A's lease ran until ${clockLabel(lease)}, after B looked at ${clockLabel(pause + 5)}: nobody took the run while A was frozen.`,
      ];
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock')), ...anomalyLines(trace)];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** Durable cancel versus killing the process. */
const cancelOutcome = generator('cancel-outcome', 'Does the cancel stick?', 'cancellation', cancelDurable, (random) => {
  const method = pick(random, ['cancel-continue', 'cancel-crash', 'kill'] as const);
  const lease = pick(random, [30, 60]);
  const wait = pick(random, [lease - 10, lease + 1]);
  const generation = between(random, 3, 40);
  const [runId] = distinctIds(random, 1) as [number];
  const key = `cancel-outcome/${method}/${lease}/${wait}/${generation}/${runId}`;
  const scenario = scenarioVariant(cancelDurable, safeTag(key), {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: generation }],
    leaseSeconds: lease,
    heartbeatSeconds: null,
    workSteps: 3,
  });
  const schedule =
    method === 'cancel-continue'
      ? ['A', 'A', 'A', `cancel:${runId}`, 'A', 'A', `+${wait}`, 'B']
      : method === 'cancel-crash'
        ? ['A', 'A', 'A', `cancel:${runId}`, 'crash:A', `+${wait}`, 'B', 'B', 'B']
        : ['A', 'A', 'A', `kill:${runId}`, `+${wait}`, 'B', 'B', 'B'];
  const bSteps = schedule.length - schedule.lastIndexOf(`+${wait}`) - 1;
  const story = {
    'cancel-continue': `the operator sets cancel_requested on run ${runId}, and A takes two more steps`,
    'cancel-crash': `the operator sets cancel_requested on run ${runId}, and A crashes before its next step`,
    kill: `the operator "cancels" run ${runId} by killing A's process`,
  }[method];
  return {
    key,
    facts: [
      method === 'kill' ? 'cancel by kill' : 'durable cancel',
      method === 'cancel-crash' ? 'A crashes' : '',
      `lease ${lease} s`,
      `B polls ${wait} s later`,
    ].filter((f) => f !== ''),
    scenario,
    settings: { strategy: 'skip-locked', fencing: true },
    schedule,
    prompt: `A is working on run ${runId} (lease ${lease} s, no heartbeat). Then ${story}. ${wait} s later B takes ${bSteps === 1 ? 'one step' : `${bSteps} steps`}. What is run ${runId}'s status after B's ${bSteps === 1 ? 'step' : 'last step'}?`,
    choices: [
      { id: 'cancelled', label: 'cancelled' },
      { id: 'running-B', label: 'running, and now owned by B' },
      { id: 'running-A', label: 'running, still leased to A (who is gone or stopped)' },
      { id: 'done', label: 'done' },
    ],
    answerFrom(trace) {
      const run = finalRun(trace, runId);
      if (!run) return null;
      if (run.status === 'cancelled') return 'cancelled';
      if (run.status === 'done') return 'done';
      if (run.status === 'running') return run.lease_owner === 'B' ? 'running-B' : run.lease_owner === 'A' ? 'running-A' : null;
      return null;
    },
    explain(trace) {
      const run = finalRun(trace, runId);
      const lines = [`Run ${runId} ends ${run?.status} (owner ${run?.lease_owner ?? 'none'}, cancel_requested ${run?.cancel_requested}).`];
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock')), ...anomalyLines(trace)];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** Three workers claim in some order: which run does one of them get? */
const claimOrder = generator('claim-order', 'Who gets which run?', 'atomic-claim', threeWorkers, (random) => {
  const ids = distinctIds(random, 3);
  const ages = shuffled(random, [-180, -120, -60]);
  const special = pick(random, ['pending', 'expired', 'live'] as const);
  const specialIndex = between(random, 0, 2);
  const runs: RunSeed[] = ids.map((runId, i) => {
    const seed: RunSeed = { runId, createdAtSeconds: ages[i]!, leaseGeneration: between(random, 0, 30) };
    if (i === specialIndex && special !== 'pending') {
      seed.status = 'running';
      seed.leaseOwner = 'worker-7';
      seed.leaseExpiresAtSeconds = special === 'expired' ? -30 : 45;
    }
    return seed;
  });
  const order = shuffled(random, ['A', 'B', 'C']);
  const target = pick(random, order);
  const key = `claim-order/${order.join('')}/${target}/${special}/${specialIndex}/${ids.join('.')}/${ages.join('.')}`;
  const scenario = scenarioVariant(threeWorkers, safeTag(key), { runs });
  const describe = [...runs]
    .sort((x, y) => x.runId - y.runId)
    .map((run) =>
      run.status === 'running'
        ? `run ${run.runId} (created ${clockLabel(run.createdAtSeconds)}) is running, leased to worker-7 until ${clockLabel(run.leaseExpiresAtSeconds!)}`
        : `run ${run.runId} (created ${clockLabel(run.createdAtSeconds)}) is pending`,
    );
  return {
    key,
    facts: [`order ${order.join(', ')}`, special === 'pending' ? 'three pending runs' : special === 'expired' ? 'one expired lease' : 'one live lease'],
    scenario,
    settings: { strategy: 'skip-locked', fencing: true },
    schedule: order,
    prompt: `It is ${clockLabel(0)}. ${describe.join('; ')}. Workers ${order.join(', ')} each run the SKIP LOCKED claim once, in that order, and none of them has committed yet. Which run does ${target} get?`,
    choices: [...[...ids].sort((x, y) => x - y).map((runId) => ({ id: `run-${runId}`, label: `Run ${runId}` })), { id: 'nothing', label: 'Nothing' }],
    answerFrom(trace) {
      const step = stepsAtToken(trace, order.indexOf(target)).find((s) => s.actor === target);
      if (!step) return null;
      if (step.verdict === 'empty') return 'nothing';
      const worker = step.workers.find((w) => w.id === target);
      return step.verdict === 'ok' && worker?.runId !== null && worker?.runId !== undefined ? `run-${worker.runId}` : null;
    },
    explain(trace) {
      const lines = [
        'The claim takes the oldest run that is pending or whose lease has expired (ORDER BY created_at), and SKIP LOCKED passes over any run another open claim has locked.',
      ];
      return [...lines, ...noteLines(trace.steps)];
    },
    focusTokenIndex: order.indexOf(target),
  };
});

const MINUTE = 60;
const HOUR = 3600;

/**
 * A variant of an incident's scenario that tells another story than the incident's: under its own title,
 * without the incident, so nothing presents it as the report it was built from.
 */
function retold(base: Scenario, tag: string, title: string, changes: Partial<Omit<Scenario, 'id'>>): Scenario {
  // Neither the incident nor its rescuer: a retold scenario's claim takes expired leases back itself.
  const { incident: _notThisOne, rescuer: _noRescuer, ...variant } = scenarioVariant(base, tag, { ...changes, title, summary: `${title}.` });
  return variant;
}

/** A claim the long-job question can play: how it ends ownership (its horizon) and whether anything renews it. */
interface LongJobClaim {
  strategy: Strategy;
  fencing: boolean;
  name: string;
  /** Horizons to ask about: the queue's default, and one a report used. */
  horizons: readonly number[];
  /** The claim's rule in a sentence, for the prompt (facts: RESEARCH.md §A and each strategy's `queue` facts). */
  rule(horizon: number): string;
}

const LONG_JOB_CLAIMS: readonly LongJobClaim[] = [
  {
    strategy: 'graphile-worker',
    fencing: false,
    name: 'graphile-worker',
    horizons: [4 * HOUR],
    rule: () => "graphile-worker's claim: a lock older than 4 hours counts as abandoned, and nothing renews it",
  },
  {
    strategy: 'oban',
    fencing: false,
    name: 'Oban',
    horizons: [6 * MINUTE, HOUR],
    rule: (horizon) =>
      `Oban's claim, with the Lifeline's rescue_after at ${durationLabel(horizon, 'long')}: an executing job whose attempt is older than that is rescued, purely on time`,
  },
  {
    strategy: 'pg-boss',
    fencing: false,
    name: 'pg-boss',
    horizons: [15 * MINUTE, HOUR],
    rule: (horizon) =>
      `pg-boss's fetch, with expireInSeconds at ${durationLabel(horizon, 'long')}: the expiry counts from the job's start, and a touch does not move it`,
  },
  {
    strategy: 'river',
    fencing: false,
    name: 'River',
    horizons: [HOUR],
    rule: () => "River's claim, with RescueStuckJobsAfter at 1 hour: a job running longer than that is rescued, and nothing renews it",
  },
  {
    strategy: 'skip-locked',
    fencing: true,
    name: "the lab's atomic claim",
    horizons: [HOUR, 4 * HOUR],
    rule: (horizon) => `the lab's atomic claim, with a ${durationLabel(horizon, 'long')} lease that A's heartbeat renews`,
  },
];

/** A job longer than its queue's horizon (graphile/worker #169, hexpm #1825, pg-boss #555): does a second worker start it? */
export const longJob = generator('long-job', 'What happens to this long job?', 'production-queues', incidentGraphile169, (random) => {
  const claim = pick(random, LONG_JOB_CLAIMS);
  const horizon = pick(random, claim.horizons);
  const jobLength = horizon * pick(random, [1.5, 2]);
  // A looks at its run three quarters of the way to the horizon; B polls before the horizon or just past it.
  const beat = (horizon * 3) / 4;
  const after = pick(random, [true, false]);
  const pollAt = after ? horizon + 1 : horizon - horizon / 10;
  const generation = between(random, 3, 40);
  const [runId] = distinctIds(random, 1) as [number];
  const key = `long-job/${claim.strategy}/${horizon}/${jobLength}/${after ? 'after' : 'before'}/${generation}/${runId}`;
  const scenario = retold(incidentGraphile169, safeTag(key), `A ${durationLabel(jobLength, 'long')} job under ${claim.name}`, {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: generation }],
    leaseSeconds: horizon,
    heartbeatSeconds: beat,
    workSteps: 2,
    defaultStrategy: claim.strategy,
    defaultFencing: claim.fencing,
  });
  const schedule = ['A', 'A', 'A', `+${beat}`, 'A', `+${pollAt - beat}`, 'B'];
  return {
    key,
    facts: [
      `claim: ${claim.name}`,
      `job about ${durationLabel(jobLength, 'long')}`,
      `B polls ${after ? 'just after' : 'before'} the ${durationLabel(horizon, 'long')} mark`,
    ],
    scenario,
    settings: { strategy: claim.strategy, fencing: claim.fencing },
    schedule,
    prompt: `Run ${runId} is a job that takes about ${durationLabel(jobLength, 'long')}. At ${clockLabel(0)} A claims it with ${claim.rule(horizon)}. At ${clockLabel(beat)}, still working, A sends what this claim has for a heartbeat (for a queue without one, a plain read of its run). B polls at ${clockLabel(pollAt)}, while A is still working. What happens to the job?`,
    choices: [
      { id: 'twice', label: `B claims run ${runId} too: the job now runs twice` },
      { id: 'once', label: `B finds nothing to claim: run ${runId} stays A's` },
      { id: 'waits', label: "B's claim waits for A's row lock until A has finished" },
    ],
    answerFrom(trace) {
      const step = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'B');
      if (!step) return null;
      if (step.verdict === 'blocked') return 'waits';
      if (step.verdict === 'empty') return 'once';
      return step.verdict === 'ok' && step.workers.find((w) => w.id === 'B')?.runId === runId ? 'twice' : null;
    },
    explain(trace) {
      const look = trace.steps.find((s) => s.actor === 'A' && s.action === 'heartbeat');
      const until = look?.workers.find((w) => w.id === 'A')?.leaseExpiresAtSeconds ?? null;
      const lines = [
        until === null
          ? `After A's heartbeat at ${clockLabel(beat)} the row shows no lease end for A.`
          : `After A's heartbeat at ${clockLabel(beat)}, run ${runId}'s lease ran until ${clockLabel(until)}; B polled at ${clockLabel(pollAt)}: ${
              until < pollAt ? 'past it, so the claim took the run from a worker that was still running it.' : "before it, so the run was still A's."
            }`,
        'A horizon counted from the claim must be longer than the longest job; a lease the running worker renews ends only when the worker stops renewing.',
      ];
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock')), ...anomalyLines(trace)];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/** How each production queue's ownership ends, in the words of a prompt, and its horizon (its default, or graphile-worker's fixed 4 hours). */
const LATE_FINISH_QUEUES: Partial<Record<Strategy, { horizon: number; ends: string; guard: string; deletesWhenDone?: true }>> = {
  // graphile-worker deletes a completed job, where the lab marks it done: after B's completion its A would find no row.
  'graphile-worker': { horizon: 4 * HOUR, ends: 'its lock is more than 4 hours old', guard: 'the id only', deletesWhenDone: true },
  oban: { horizon: HOUR, ends: "its attempt is older than the Lifeline's rescue_after (60 minutes by default)", guard: 'the id only' },
  'pg-boss': { horizon: 15 * MINUTE, ends: 'it passes its expiry (15 minutes after its start by default)', guard: "state = 'active' only" },
  river: { horizon: HOUR, ends: 'it has run longer than RescueStuckJobsAfter (1 hour by default)', guard: "state = 'running' only" },
  'solid-queue': {
    horizon: 5 * MINUTE,
    ends: "A's process heartbeat has stalled for 5 minutes, so the supervisor prunes A",
    guard: 'the id only, as before Solid Queue v1.5.0',
  },
  procrastinate: {
    horizon: 30,
    ends: "A's worker heartbeat has stalled for 30 s, so your stalled-jobs task retries it",
    guard: 'status todo or doing only',
  },
};

/** A worker whose job was taken over finishes it after all (pg-boss #555, Solid Queue #589): does its completion land? */
export const lateFinish = generator('late-finish', 'Does the late finish land?', 'production-queues', incidentSolidQueue589, (random) => {
  const queues = QUEUE_STRATEGY_IDS.filter((id) => LATE_FINISH_QUEUES[id] !== undefined);
  const strategy = pick(random, queues);
  const { horizon, ends, guard, deletesWhenDone } = LATE_FINISH_QUEUES[strategy]!;
  const fencing = pick(random, [false, true]);
  // Only while the job still exists in the queue's own table: the lab keeps a done run, graphile-worker does not.
  const bFirst = deletesWhenDone ? false : pick(random, [true, false]);
  const generation = between(random, 3, 40);
  const [runId] = distinctIds(random, 1) as [number];
  const name = strategyDefinition(strategy).queue!.name;
  const key = `late-finish/${strategy}/${fencing ? 'on' : 'off'}/${bFirst ? 'b-first' : 'a-first'}/${generation}/${runId}`;
  const scenario = retold(incidentSolidQueue589, safeTag(key), `A late finish under ${name}`, {
    runs: [{ runId, createdAtSeconds: -120, leaseGeneration: generation }],
    leaseSeconds: horizon,
    heartbeatSeconds: null,
    workSteps: 1,
    defaultStrategy: strategy,
    defaultFencing: fencing,
  });
  const schedule = bFirst ? ['A', 'A', 'A', `+${horizon + 1}`, 'B', 'B', 'B', 'B', 'A'] : ['A', 'A', 'A', `+${horizon + 1}`, 'B', 'B', 'A'];
  const check = fencing
    ? strategy === 'solid-queue'
      ? "its own claimed-execution row (Solid Queue since v1.5.0, played as the lab's generation check)"
      : `the lab's generation fence (… AND lease_generation = $2), which ${name} does not have`
    : `${name}'s own guard: ${guard}`;
  return {
    key,
    facts: [
      `queue: ${name}`,
      `completion checks ${fencing ? (strategy === 'solid-queue' ? 'the claim row' : 'the generation') : guard}`,
      bFirst ? 'B finishes first' : 'A finishes first',
    ],
    scenario,
    settings: { strategy, fencing },
    schedule,
    prompt: `A claims run ${runId} (generation ${generation + 1}) with ${strategyDefinition(strategy).inWords} and does its one model call. Its ownership ends when ${ends}, and at ${clockLabel(horizon + 1)} B claims the run. ${
      bFirst
        ? 'B does the work and completes the run; then A, still alive, completes it too.'
        : 'Before B does anything more, A, still alive, completes the run.'
    } A's completion checks ${check}. What happens to A's completion?`,
    choices: [
      { id: 'lands', label: `It commits: run ${runId} is marked done by a worker that no longer owns it` },
      { id: 'rejected', label: 'It matches 0 rows, and A learns that it lost the run' },
      { id: 'waits', label: "It waits for B's row lock" },
    ],
    answerFrom(trace) {
      const write = stepsAtToken(trace, schedule.length - 1).find((s) => s.actor === 'A' && s.sqlId !== null);
      if (!write) return null;
      if (write.verdict === 'rejected') return 'rejected';
      if (write.verdict === 'blocked') return 'waits';
      return write.verdict === 'ok' ? 'lands' : null;
    },
    explain(trace) {
      const run = finalRun(trace, runId);
      const lines = [
        `Run ${runId} ends ${run?.status ?? '?'}, owned by ${run?.lease_owner ?? 'nobody'} at generation ${run?.lease_generation ?? '?'}; A held generation ${generation + 1}.`,
        'A guard that checks only the id or the state lets whichever copy writes while the state still matches win; a check of the claim itself (a generation, a claim row) refuses the stale copy every time.',
      ];
      return [...lines, ...noteLines(trace.steps.filter((s) => s.actor !== 'clock')), ...anomalyLines(trace)];
    },
    focusTokenIndex: schedule.length - 1,
  };
});

/**
 * Above READ COMMITTED, which the page cannot run (PGlite is one session): what a claim's statement does,
 * judged by the trace recorded on PostgreSQL for that scenario, claim and level (recordings/), read as any
 * run's trace is. At REPEATABLE READ the question is B's UPDATE after it waited for A; at SERIALIZABLE, one
 * worker's COMMIT of three open SKIP LOCKED claims.
 */
const isolationRecorded = generator('isolation-recorded', 'Above READ COMMITTED, recorded on PostgreSQL', 'compare-and-set', race, (random) => {
  const plan = pick(
    random,
    RECORDING_PLANS.filter((candidate) => candidate.scenarioId === race.id || candidate.scenarioId === threeWorkers.id),
  );
  const base = plan.scenarioId === threeWorkers.id ? threeWorkers : race;
  const worker = plan.isolation === 'serializable' ? pick(random, ['A', 'B', 'C'] as const) : 'B';
  const key = `${plan.id}/${worker}`;
  const level = ISOLATION_WORDS[plan.isolation];
  const settings: Settings = { ...defaultSettings(base), strategy: plan.strategy, isolation: plan.isolation };
  const recorded = `Recorded on a real PostgreSQL server: ${PGLITE_HAS_ONE_SESSION}, so the page cannot run ${level}.`;
  const facts = [level, inWords(plan.strategy), 'recorded on PostgreSQL'];
  const shared = {
    key,
    facts,
    scenario: scenarioVariant(base, safeTag(key), {}),
    settings,
    schedule: plan.schedule === 'script' ? [...base.script] : [...plan.schedule],
    focusTokenIndex: null,
  };
  if (plan.isolation === 'serializable') {
    const commitOf = (trace: Trace) => commitStepOf(trace, worker);
    return {
      ...shared,
      prompt: `At ${level}, A, B and C each claim a different run with ${inWords(plan.strategy)}, each in a transaction of its own, all three open at once. Then they commit in turn: A, B, C. What does ${worker}'s COMMIT do?`,
      choices: [
        { id: 'commits', label: `It commits: ${worker} keeps the run it claimed` },
        { id: 'fails-40001', label: `It fails with 40001: ${worker}'s claim is gone, and ${worker} claims again` },
        { id: 'waits', label: "It waits until the others' transactions end" },
      ],
      answerFrom: (trace) => commitAnswer(commitOf(trace)),
      explain(trace) {
        const commit = commitOf(trace);
        return [
          recorded,
          ...noteLines(trace.steps.filter((step) => step.action === 'claim' || step.action === 'commit').slice(0, commit ? commit.index + 1 : undefined)),
        ];
      },
    };
  }
  const resumedOf = (trace: Trace) => trace.steps.find((step) => step.actor === 'B' && step.resumed);
  return {
    ...shared,
    prompt: `At ${level}, with ${inWords(plan.strategy)}, A and B each read run 123 as pending in a transaction of their own. A's UPDATE of run 123 comes first; B's UPDATE of it waits for A's row lock; then A commits. What does B's UPDATE do?`,
    choices: [
      { id: 'claims-too', label: 'It updates run 123 too: both workers hold it' },
      { id: 'zero-rows', label: 'It re-checks run 123, matches 0 rows and returns no error' },
      { id: 'fails-40001', label: 'It fails with 40001: B rolls back and claims again' },
      { id: 'keeps-waiting', label: "It keeps waiting until B's own transaction ends" },
    ],
    answerFrom(trace) {
      const resumed = resumedOf(trace);
      if (!resumed) return null;
      const outcome = resumed.outcome;
      if (outcome?.status === 'error' && outcome.code === '40001') return 'fails-40001';
      if (outcome?.status === 'ok') return outcome.rowCount === 0 ? 'zero-rows' : 'claims-too';
      return outcome?.status === 'blocked' ? 'keeps-waiting' : null;
    },
    explain(trace) {
      const resumed = resumedOf(trace);
      const after = resumed ? trace.steps.filter((step) => step.actor === 'B' && step.index >= resumed.index).slice(0, 2) : [];
      return [recorded, ...noteLines(after)];
    },
  };
});

/** Acme's runs running under A or B in the rows committed after this step. */
function acmeRunning(step: TraceStep): number[] {
  return step.runs
    .filter((run) => run.tenant === 'acme' && run.status === 'running' && (run.lease_owner === 'A' || run.lease_owner === 'B'))
    .map((run) => run.run_id);
}

/**
 * Write skew, judged by the tenant cap's traces recorded on PostgreSQL (recordings/plans.ts): A and B each
 * count acme's running runs below its cap of one and claim, both open at once, then commit in turn. What
 * B's COMMIT does, or how many of acme's runs run once both have committed, at REPEATABLE READ or at
 * SERIALIZABLE: the answer is read from the recording, never written here.
 */
const writeSkewRecorded = generator('write-skew-recorded', 'Write skew, recorded on PostgreSQL', 'compare-and-set', tenantBacklog, (random) => {
  const plan = pick(
    random,
    RECORDING_PLANS.filter((candidate) => candidate.scenarioId === tenantBacklog.id),
  );
  const asks = pick(random, ['commit', 'count'] as const);
  const key = `${plan.id}/${asks}`;
  const level = ISOLATION_WORDS[plan.isolation];
  const settings: Settings = { ...defaultSettings(tenantBacklog), strategy: plan.strategy, isolation: plan.isolation };
  const recorded = `Recorded on a real PostgreSQL server: ${PGLITE_HAS_ONE_SESSION}, so the page cannot run ${level}.`;
  // The given schedule and B's next claim: a retry after a 40001 shows in the trace.
  const schedule = plan.schedule === 'script' ? [...tenantBacklog.script] : [...plan.schedule, 'A', 'B'];
  const setup = `Acme may have one run running. The claim counts acme's running runs and takes one of acme's runs only while there are fewer than 1 (run 120's lease has just run out, so acme is below its cap). At ${level}, A and B each run this claim in a transaction of their own, both before either commits: A takes run 120, B acme's run 121. Then A commits, then B.`;
  const commitOf = (trace: Trace) => commitStepOf(trace, 'B');
  const shared = {
    key,
    facts: [level, inWords(plan.strategy), 'recorded on PostgreSQL'],
    scenario: scenarioVariant(tenantBacklog, safeTag(key), {}),
    settings,
    schedule,
    focusTokenIndex: null,
    explain(trace: Trace) {
      const commit = commitOf(trace);
      const running = commit ? acmeRunning(commit) : [];
      return [
        recorded,
        ...noteLines(trace.steps.filter((step) => step.action === 'claim' || step.action === 'commit')),
        `After B's COMMIT acme runs ${running.length === 1 ? `one run (${running[0]})` : `${running.length} runs (${running.join(' and ')})`}. Each claim counted acme in the rows committed when it began, where the other's claim was not yet visible: that is write skew. REPEATABLE READ lets both commit, since they wrote different rows; SERIALIZABLE fails the second COMMIT with 40001 and the worker claims again.`,
      ];
    },
  };
  if (asks === 'commit') {
    return {
      ...shared,
      prompt: `${setup} What does B's COMMIT do?`,
      choices: [
        { id: 'commits', label: "It commits: B keeps acme's run 121" },
        { id: 'fails-40001', label: 'It fails with 40001: B rolls back and claims again' },
        { id: 'waits', label: 'It waits until PostgreSQL can tell whether the cap holds' },
      ],
      answerFrom: (trace) => commitAnswer(commitOf(trace)),
    };
  }
  return {
    ...shared,
    prompt: `${setup} Once B's COMMIT has returned, how many of acme's runs are running?`,
    choices: [
      { id: 'one', label: 'One: the cap holds' },
      { id: 'two', label: 'Two: acme is past its cap' },
      { id: 'none', label: 'None: both claims were rolled back' },
    ],
    answerFrom(trace) {
      const commit = commitOf(trace);
      if (!commit || commit.outcome?.status === 'blocked') return null;
      return (['none', 'one', 'two'] as const)[acmeRunning(commit).length] ?? null;
    },
  };
});

export const PREDICT_GENERATORS: readonly PredictGenerator[] = [
  claimRace,
  claimOrder,
  lockMode,
  leaseExpiry,
  heartbeatGap,
  stuckOrDead,
  fencingWrite,
  cancelOutcome,
  longJob,
  lateFinish,
  isolationRecorded,
  writeSkewRecorded,
];

export function findGenerator(id: string): PredictGenerator | undefined {
  return PREDICT_GENERATORS.find((g) => g.id === id);
}

/**
 * A new instance whose parameters differ from the previous one's (when the generator can vary): tries
 * successive seeds from `seed`.
 */
export function freshInstance(generatorToUse: PredictGenerator, seed: number, previousKey: string | null): PredictInstance {
  let instance = generatorToUse.generate(seed >>> 0);
  for (let i = 1; i < 32 && previousKey !== null && instance.key === previousKey; i++) {
    instance = generatorToUse.generate((seed + i * 7919) >>> 0);
  }
  return instance;
}

/** A seed for a new attempt: random in the browser, so parameters differ from attempt to attempt. */
export function randomSeed(): number {
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') {
    return crypto.getRandomValues(new Uint32Array(1))[0]!;
  }
  return Math.floor(Math.random() * 0xffffffff);
}

/** The worker's first COMMIT in a recorded trace. */
function commitStepOf(trace: Trace, worker: string): TraceStep | undefined {
  return trace.steps.find((step) => step.actor === worker && step.action === 'commit');
}

/** What a recorded COMMIT did, as the isolation questions' choices name it. */
function commitAnswer(commit: TraceStep | undefined): 'commits' | 'fails-40001' | 'waits' | null {
  const outcome = commit?.outcome;
  if (outcome?.status === 'ok') return 'commits';
  if (outcome?.status === 'error' && outcome.code === '40001') return 'fails-40001';
  return outcome?.status === 'blocked' ? 'waits' : null;
}
