import { describe, expect, it } from 'vitest';
import { defineScenario, SCENARIO_DEFAULTS } from '../../src/scenarios/define';
import { LESSON_SCENARIOS } from '../../src/scenarios';
import type { Scenario } from '../../src/sim/types';

/**
 * Every scenario fully written out, as each file stated it before defineScenario filled in the defaults
 * (printed from that code, not from defineScenario). A default that changes, or a scenario that loses a
 * field it needed to state, changes what a learner sees; this catches both.
 */
const BEFORE_DEFAULTS: Scenario[] = [
  {
    id: 'race',
    title: 'Two workers, two pending runs',
    summary:
      'A and B poll for work at the same moment. With SELECT then UPDATE both read run 123 as pending,\nboth claim it, and both pay for its model calls.',
    summaries: {
      cas: 'A and B poll for work at the same moment and both read run 123 as pending. Compare-and-set lets only\nthe first UPDATE through: the other matches 0 rows, looks again and takes run 124.',
      'skip-locked':
        "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's claim skips the locked row and takes run 124. No run is claimed twice.",
      'for-update':
        "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's plain FOR UPDATE waits for A to commit, then takes run 124. No run is claimed twice.",
      nowait:
        "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's NOWAIT claim fails at once (55P03), tries again and takes run 124. No run is claimed twice.",
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [
      { runId: 123, createdAtSeconds: -120, leaseGeneration: 17 },
      { runId: 124, createdAtSeconds: -60, leaseGeneration: 3 },
    ],
    defaultStrategy: 'naive',
    defaultFencing: false,
    leaseSeconds: 60,
    heartbeatSeconds: 20,
    workSteps: 2,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
    concepts: ['race', 'claim'],
  },
  {
    id: 'three-workers',
    title: 'Three workers, three runs',
    summary:
      'Each claim locks the oldest free run inside its transaction. SKIP LOCKED lets the next worker\npass over a run someone is claiming, so every run gets exactly one owner.',
    summaries: {
      naive:
        'Each worker reads the oldest pending run, then claims it with an UPDATE that checks nothing. Workers\nthat read before anyone writes all claim the same run: nothing stops a double claim.',
      cas: 'Each worker reads the oldest pending run, then claims it only if it is still pending. Of the workers\nthat read the same run one wins; the others match 0 rows and look again.',
      'for-update':
        'Each claim locks the oldest free run inside its transaction. With plain FOR UPDATE a worker that\nreaches a locked run waits until its claimer commits; no run gets two owners.',
      nowait:
        'Each claim locks the oldest free run inside its transaction. With NOWAIT a worker that reaches a\nlocked run fails at once (55P03) and tries again; no run gets two owners.',
    },
    workers: [{ id: 'A' }, { id: 'B' }, { id: 'C' }],
    runs: [
      { runId: 123, createdAtSeconds: -180, leaseGeneration: 17 },
      { runId: 124, createdAtSeconds: -120 },
      { runId: 125, createdAtSeconds: -60 },
    ],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: 20,
    workSteps: 1,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'],
    concepts: ['atomic-claim', 'skip-locked'],
  },
  {
    id: 'lock-wait',
    title: 'A holds its claim open: does B wait, fail or skip?',
    summary:
      "A has locked run 123 and not committed yet when B claims. With plain FOR UPDATE B waits for A's\nlock; once A commits, B's claim finds run 123 taken and takes run 124.",
    summaries: {
      'skip-locked':
        'A has locked run 123 and not committed yet when B claims. With SKIP LOCKED B passes over the\nlocked row at once and takes run 124: nobody waits.',
      nowait:
        "A has locked run 123 and not committed yet when B claims. With NOWAIT B's claim fails at once\n(55P03); B tries again once A has committed and takes run 124.",
      naive:
        'The naive claim holds no lock between its SELECT and its UPDATE, so there is nothing to wait for:\nA and B both read run 123, both claim it and both pay for it.',
      cas: "Compare-and-set holds no lock between its SELECT and its UPDATE, so nobody waits: both read run 123,\nA's UPDATE wins, B's matches 0 rows, and B looks again and takes run 124.",
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [
      { runId: 123, createdAtSeconds: -120, leaseGeneration: 17 },
      { runId: 124, createdAtSeconds: -60 },
    ],
    defaultStrategy: 'for-update',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: 20,
    workSteps: 1,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
    concepts: ['atomic-claim', 'for-update', 'nowait'],
  },
  {
    id: 'crash-orphan',
    title: 'A crashes: its run is an orphan until the lease expires',
    summary:
      'A claims run 123 and dies mid-work. Nobody can take the run while the lease is valid;\nonce it expires the atomic claim reclaims it for B with the next generation.',
    summaries: {
      naive:
        "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
      cas: "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: null,
    workSteps: 2,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'A', 'A', 'crash:A', '+30', 'B', '+31', 'B', 'B', 'B', 'B', 'B'],
    concepts: ['lease', 'orphan', 'reclaim'],
  },
  {
    id: 'heartbeat',
    title: 'Heartbeats keep a long run owned',
    summary:
      "A needs longer than one 60 s lease. Every 30 s it renews the lease, so when B looks for work\nat 1:30 the run is still A's, though the first lease ran out long ago.",
    summaries: {
      naive:
        'A needs longer than one 60 s lease and renews it every 30 s. B looks for work at 1:30 and finds none:\nthis claim reads only pending runs, so B would pass over run 123 even had the lease run out.',
      cas: 'A needs longer than one 60 s lease and renews it every 30 s. B looks for work at 1:30 and finds none:\nthis claim reads only pending runs, so B would pass over run 123 even had the lease run out.',
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: 30,
    workSteps: 3,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'A', 'A', '+30', 'A', 'A', '+30', 'A', '+30', 'B', 'A', 'A', 'A'],
    concepts: ['heartbeat', 'lease'],
  },
  {
    id: 'stuck-heartbeat',
    title: 'Alive but stuck: heartbeats without progress',
    summary:
      'A renews its lease on time but never finishes a model call. The lease never expires, so no one\nrescues the run: a heartbeat says the worker is alive, not that it is getting anywhere.',
    summaries: {
      naive:
        'A renews its lease on time but never finishes a model call. No one rescues the run, and not because of\nthe lease: this claim reads only pending runs. A heartbeat says the worker is alive, not that it is getting anywhere.',
      cas: 'A renews its lease on time but never finishes a model call. No one rescues the run, and not because of\nthe lease: this claim reads only pending runs. A heartbeat says the worker is alive, not that it is getting anywhere.',
    },
    workers: [{ id: 'A', stuck: true }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: 20,
    workSteps: 2,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'B'],
    concepts: ['heartbeat', 'progress'],
  },
  {
    id: 'paused-worker',
    title: 'A pauses past its lease, then writes',
    summary:
      'A owns run 123 with generation 18 and freezes for 90 s. B reclaims the run as generation 19.\nA wakes and writes its result: fencing rejects it; without fencing both believe they own the run.',
    summaries: {
      naive:
        'A owns run 123 with generation 18 and freezes for 90 s. Its lease runs out, but this claim reads only\npending runs: B finds no work, and A wakes and finishes the run. No takeover, so nothing for fencing to reject.',
      cas: 'A owns run 123 with generation 18 and freezes for 90 s. Its lease runs out, but this claim reads only\npending runs: B finds no work, and A wakes and finishes the run. No takeover, so nothing for fencing to reject.',
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: null,
    workSteps: 1,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [{ kind: 'pause', worker: 'A', atSeconds: 10, forSeconds: 90 }],
    script: ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A', 'B'],
    concepts: ['fencing', 'lease'],
  },
  {
    id: 'cancel-durable',
    title: 'Durable cancellation: the request lives in the row',
    summary:
      'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next\nsafe point and stops; had A died first, whoever reclaimed the run would see it too.',
    summaries: {
      naive:
        'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next safe point\nand stops. Had A died first, this claim would never take the run again: the request would sit in a stranded row.',
      cas: 'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next safe point\nand stops. Had A died first, this claim would never take the run again: the request would sit in a stranded row.',
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: null,
    workSteps: 3,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'A', 'A', 'cancel:123', 'A', 'A', 'B'],
    concepts: ['cancellation'],
  },
  {
    id: 'cancel-kill',
    title: 'Cancelling by killing the process',
    summary:
      'The operator kills A to stop run 123, but nothing records that the run should stop.\nThe lease expires, B reclaims the run and carries on: the cancel is lost.',
    summaries: {
      naive:
        'The operator kills A to stop run 123, but nothing records that the run should stop. The lease expires,\nyet this claim reads only pending runs: the run stays running under a dead worker, stranded.',
      cas: 'The operator kills A to stop run 123, but nothing records that the run should stop. The lease expires,\nyet this claim reads only pending runs: the run stays running under a dead worker, stranded.',
    },
    workers: [{ id: 'A' }, { id: 'B' }],
    runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
    defaultStrategy: 'skip-locked',
    defaultFencing: true,
    leaseSeconds: 60,
    heartbeatSeconds: null,
    workSteps: 2,
    costPerCallCents: 40,
    maxClaimAttempts: 3,
    faults: [],
    script: ['A', 'A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B'],
    concepts: ['cancellation'],
  },
];

describe('defineScenario', () => {
  it('builds every scenario exactly as it was written out in full, field order included', () => {
    expect(LESSON_SCENARIOS.map((scenario) => scenario.id)).toEqual(BEFORE_DEFAULTS.map((scenario) => scenario.id));
    for (const [index, scenario] of LESSON_SCENARIOS.entries()) {
      expect(scenario, scenario.id).toStrictEqual(BEFORE_DEFAULTS[index]);
      // Byte for byte: traces and permalinks serialise scenarios' data, so even the key order stays.
      expect(JSON.stringify(scenario), scenario.id).toBe(JSON.stringify(BEFORE_DEFAULTS[index]));
    }
  });

  it('fills in SCENARIO_DEFAULTS for every field a scenario does not state', () => {
    const plain = defineScenario({ id: 'plain', title: 'Plain', summary: 'Plain.', script: ['A'], concepts: [] });
    expect(plain).toStrictEqual({ id: 'plain', title: 'Plain', summary: 'Plain.', ...SCENARIO_DEFAULTS, script: ['A'], concepts: [] });
  });

  it('gives each scenario its own copy of a default, so changing one changes no other', () => {
    const defaults = structuredClone(SCENARIO_DEFAULTS);
    const first = defineScenario({ id: 'one', title: 'One', summary: 'One.', script: ['A'], concepts: [] });
    const second = defineScenario({ id: 'two', title: 'Two', summary: 'Two.', script: ['A'], concepts: [] });
    first.workers.push({ id: 'C' });
    first.runs[0]!.leaseGeneration = 99;
    first.faults.push({ kind: 'crash', worker: 'A', atSeconds: 1 });
    expect(second.workers).toEqual(defaults.workers);
    expect(second.runs).toEqual(defaults.runs);
    expect(second.faults).toEqual(defaults.faults);
    expect(SCENARIO_DEFAULTS).toStrictEqual(defaults);
  });

  const base = { id: 'bad', title: 'Bad', summary: 'Bad.', concepts: [] };

  it('refuses a script step that is not a schedule token, with the schedule parser’s message', () => {
    expect(() => defineScenario({ ...base, script: ['A', 'jump'] })).toThrow(
      'scenario "bad": step 2 (jump): "jump" is not a schedule step; use a worker letter (A), +SECONDS, pause:A, resume:A, crash:A, cancel:RUN, kill:RUN or rescue',
    );
    expect(() => defineScenario({ ...base, script: ['+0'] })).toThrow('scenario "bad": step 1 (+0): "+0": the clock moves between 1 and 86400 seconds');
  });

  it('refuses a script or a fault that names a worker or a run the scenario lacks, as the simulation would', () => {
    expect(() => defineScenario({ ...base, script: ['A', 'C'] })).toThrow('scenario "bad": step 2 (C): this scenario has no worker C; its workers are A, B');
    expect(() => defineScenario({ ...base, script: ['crash:D'] })).toThrow('step 1 (crash:D): this scenario has no worker D; its workers are A, B');
    expect(() => defineScenario({ ...base, script: ['cancel:999'] })).toThrow('scenario "bad": step 1 (cancel:999): there is no run 999; the runs are 123');
    expect(() => defineScenario({ ...base, script: [], faults: [{ kind: 'pause', worker: 'Z', atSeconds: 1, forSeconds: 5 }] })).toThrow(
      'scenario "bad": fault 1 (pause): this scenario has no worker Z; its workers are A, B',
    );
  });

  it('refuses workers that are not single capital letters, and duplicate workers or runs', () => {
    expect(() => defineScenario({ ...base, script: [], workers: [{ id: 'worker-1' }] })).toThrow(
      'scenario "bad": worker "worker-1" is not named by one capital letter (A, B, C…)',
    );
    expect(() => defineScenario({ ...base, script: [], workers: [{ id: 'A' }, { id: 'A' }] })).toThrow('scenario "bad": two workers are named A');
    expect(() =>
      defineScenario({
        ...base,
        script: [],
        runs: [
          { runId: 1, createdAtSeconds: 0 },
          { runId: 1, createdAtSeconds: 1 },
        ],
      }),
    ).toThrow('scenario "bad": two runs have id 1');
  });
});
