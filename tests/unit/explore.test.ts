/**
 * The fast explorer must count exactly what brute force counts, group by group, on every two-worker
 * scenario under every strategy. Brute force plays every schedule from a reset, so it is the slow half of
 * each case; the scenarios are cut down for it (BOUNDS below), and to keep `npm test` inside its time
 * budget fencing alternates by strategy (naive off, compare-and-set on, SKIP LOCKED off, FOR UPDATE on,
 * NOWAIT off).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimStrategyFromFile } from '../../src/cli/check';
import { ExplorationCancelled, ExplorationTooLarge, exploreBruteForce, exploreFast, exploreForLab, outcomeOf } from '../../src/engine/explore';
import { runSchedule } from '../../src/engine/run';
import { findScenario, INCIDENT_SCENARIOS, LESSON_SCENARIOS } from '../../src/scenarios';
import { type Scenario, STRATEGIES, type Settings } from '../../src/sim/types';
import { Simulation } from '../../src/engine/simulation';
import type { Exploration } from '../../src/sim/exploration';
import { labDatabase } from '../support/lab';

const counts = (groups: { key: string; count: number }[]) => Object.fromEntries(groups.map((g) => [g.key, g.count]));

/** Every lesson scenario with two workers (three-workers is the benchmark's business: ~30 000 schedules naive). */
const TWO_WORKER = LESSON_SCENARIOS.filter((scenario) => scenario.workers.length === 2);

/**
 * Brute force plays every schedule, so the scenarios are cut down for it (the same cut for both
 * explorers): no more than one model call, one claim attempt, and the script's clock moves and faults
 * trimmed to those that make the scenario's point. Full size, the heartbeat scenario alone has ~12 000
 * schedules under the naive claim; cut down, all eight scenarios × five strategies × fencing on and off
 * come to about 2 000. The race keeps its model call (duplicate execution needs one) but only run 123.
 */
const BOUNDS: Record<string, Partial<Scenario>> = {
  race: { workSteps: 1, maxClaimAttempts: 1, runs: findScenario('race')!.runs.slice(0, 1) },
  'lock-wait': { workSteps: 0, maxClaimAttempts: 1 },
  // The crash as a timed fault (it happens as the clock passes 1 s), so it is not a token of its own.
  'crash-orphan': { workSteps: 0, maxClaimAttempts: 1, faults: [{ kind: 'crash', worker: 'A', atSeconds: 1 }], script: ['+61'] },
  heartbeat: { workSteps: 0, maxClaimAttempts: 1, script: ['+30'] },
  'stuck-heartbeat': { workSteps: 0, maxClaimAttempts: 1, script: [] },
  'paused-worker': { workSteps: 0, maxClaimAttempts: 1, script: ['+10', '+51'] },
  'cancel-durable': { workSteps: 0, maxClaimAttempts: 1, script: ['cancel:123'] },
  'cancel-kill': { workSteps: 0, maxClaimAttempts: 1, script: ['kill:123', '+61'] },
};

/**
 * A stuck worker heartbeats forever: five steps (claim, commit and three heartbeats) are enough for it to
 * be reported stuck (STUCK_HEARTBEATS); other scenarios have no stuck worker.
 */
const STUCK_STEP_LIMIT = 5;

describe('interleaving explorer: fast path against brute force', () => {
  it('covers the scenarios the issue names, each cut down', () => {
    expect(Object.keys(BOUNDS).sort()).toEqual(TWO_WORKER.map((s) => s.id).sort());
    expect(TWO_WORKER.map((s) => s.id).sort()).toEqual(
      ['cancel-durable', 'cancel-kill', 'crash-orphan', 'heartbeat', 'lock-wait', 'paused-worker', 'race', 'stuck-heartbeat'].sort(),
    );
  });

  for (const full of TWO_WORKER) {
    const scenario: Scenario = { ...full, ...BOUNDS[full.id] };
    it(`${scenario.id} (cut down): every strategy, fencing alternating, the same groups, counts and shortest witnesses`, async () => {
      const db = await labDatabase();
      const options = { stuckStepLimit: STUCK_STEP_LIMIT };
      for (const [index, strategy] of STRATEGIES.entries()) {
        const fencing = index % 2 === 1;
        const settings: Settings = { strategy, fencing };
        const label = `${scenario.id} / ${strategy} / fencing ${fencing ? 'on' : 'off'}`;
        const brute = await exploreBruteForce(db, scenario, settings, options);
        const fast = await exploreFast(db, scenario, settings, options);
        expect(counts(fast.groups), label).toEqual(counts(brute.groups));
        expect(fast.total, label).toBe(brute.total);
        expect(fast.coverage).toBe('all');
        for (const group of fast.groups) {
          const shortest = brute.groups.find((g) => g.key === group.key)!.witness.length;
          expect(group.witness.length, `${label}: ${group.key}`).toBe(shortest);
        }
      }
    }, 240_000);
  }
});

/**
 * The production queues' incidents, each under its own queue's claim as it happened (fencing off) and with
 * its fix (fencing on), cut down as the lesson's are: one model call, one claim attempt and no heartbeat
 * (the heartbeats only lengthen every schedule; the clock moves past the lease stay). About 250 schedules each.
 */
const INCIDENT_CUT: Partial<Scenario> = { workSteps: 1, maxClaimAttempts: 1, heartbeatSeconds: null };

async function expectSameCounts(scenario: Scenario, settings: Settings): Promise<void> {
  const db = await labDatabase();
  const label = `${scenario.id} / ${settings.strategy} / fencing ${settings.fencing ? 'on' : 'off'}`;
  const brute = await exploreBruteForce(db, scenario, settings, { stuckStepLimit: STUCK_STEP_LIMIT });
  const fast = await exploreFast(db, scenario, settings, { stuckStepLimit: STUCK_STEP_LIMIT });
  expect(counts(fast.groups), label).toEqual(counts(brute.groups));
  expect(fast.total, label).toBe(brute.total);
  for (const group of fast.groups) expect(group.witness.length, `${label}: ${group.key}`).toBe(brute.groups.find((g) => g.key === group.key)!.witness.length);
}

describe('interleaving explorer on the incidents: fast path against brute force', () => {
  const incidents = INCIDENT_SCENARIOS.map((incident) => ({ id: incident.id, queue: incident.incident!.queue }));
  it.for(incidents)('$id (cut down) under $queue, fencing off and on', { timeout: 240_000 }, async ({ id, queue }) => {
    const scenario: Scenario = { ...findScenario(id)!, ...INCIDENT_CUT };
    for (const fencing of [false, true]) await expectSameCounts(scenario, { strategy: queue, fencing });
  });

  it('incident-solid-queue-589 uncut under the naive claim, fencing off (where the memo once merged states the checkers tell apart)', async () => {
    await expectSameCounts(findScenario('incident-solid-queue-589')!, { strategy: 'naive', fencing: false });
  }, 240_000);

  it("two histories that end in the same rows, locks and workers differ in the checkers' memory when their futures differ", async () => {
    // Both have read run 123, A has claimed it and paid its model call, and B has claimed it too. In the
    // first A paid before B's claim; in the second after it, while B held it: B's own call then makes the
    // run executed twice. The database and the workers are the same either way; only the checkers know.
    const scenario = findScenario('incident-solid-queue-589')!;
    const settings: Settings = { strategy: 'naive', fencing: false };
    const db = await labDatabase();
    const played = async (schedule: string[]) => {
      const sim = new Simulation(db, scenario, settings);
      await sim.reset();
      for (const token of schedule) await sim.apply(token);
      return { state: sim.stateKey(), memory: sim.anomalyMemory() };
    };
    const before = await played(['A', 'B', 'A', 'A', 'B']);
    const after = await played(['A', 'B', 'A', 'B', 'A']);
    expect(after.state).toBe(before.state);
    expect(after.memory).not.toBe(before.memory);
    const outcome = async (schedule: string[]) => outcomeOf((await runSchedule(db, scenario, settings, schedule)).anomalies).key;
    expect(await outcome(['A', 'B', 'A', 'A', 'B', '+301', 'A', 'B'])).not.toContain('duplicate-execution');
    expect(await outcome(['A', 'B', 'A', 'B', 'A', '+301', 'A', 'B'])).toContain('duplicate-execution:123');
  });
});

describe('interleaving explorer under a per-tenant cap: fast path against brute force', () => {
  it('tenant-backlog (cut down) under tenant-cap: the orders that pass through acme over its cap are counted, not taken for their mirror', async () => {
    // A's COMMIT of run 120 and B's completion of run 121 touch different rows and end in the same rows in
    // either order, but only one order has acme running two at once in between.
    const scenario: Scenario = { ...findScenario('tenant-backlog')!, workSteps: 0, maxClaimAttempts: 1, script: ['+31'] };
    const settings: Settings = { strategy: 'tenant-cap', fencing: true };
    const db = await labDatabase();
    const brute = await exploreBruteForce(db, scenario, settings, { stuckStepLimit: STUCK_STEP_LIMIT });
    const fast = await exploreFast(db, scenario, settings, { stuckStepLimit: STUCK_STEP_LIMIT });
    expect(counts(brute.groups)).toEqual({ none: 54, 'tenant-over-cap:120': 4, 'tenant-over-cap:121': 4 });
    expect(counts(fast.groups)).toEqual(counts(brute.groups));
  }, 240_000);
});

describe('interleaving explorer', () => {
  /** The whole naive race, explored once: two tests below ask the fast path the same question of it. */
  let naiveRace: Promise<Exploration> | null = null;
  const exploreNaiveRace = async () => {
    naiveRace ??= labDatabase().then((db) => exploreFast(db, findScenario('race')!, { strategy: 'naive', fencing: false }));
    return naiveRace;
  };

  it('a witness replayed on its own ends in its group', async () => {
    const db = await labDatabase();
    const scenario = findScenario('race')!;
    const settings: Settings = { strategy: 'naive', fencing: false };
    const fast = await exploreNaiveRace();
    expect(fast.groups.length).toBeGreaterThan(1);
    for (const group of fast.groups) {
      const trace = await runSchedule(db, scenario, settings, group.witness);
      expect(outcomeOf(trace.anomalies).key).toBe(group.key);
    }
  });

  it('the naive race double-executes in some schedules; the atomic claim in none', async () => {
    const db = await labDatabase();
    const naive = await exploreNaiveRace();
    const duplicate = naive.groups.filter((g) => g.key.includes('duplicate-execution:123'));
    expect(duplicate.length).toBeGreaterThan(0);
    expect(duplicate.reduce((sum, g) => sum + g.count, 0)).toBeLessThan(naive.total);
    const atomic = await exploreFast(db, findScenario('race')!, { strategy: 'skip-locked', fencing: false });
    expect(atomic.groups.map((g) => g.key)).toEqual(['none']);
  });

  it('skips orders of independent steps without changing a count, and reports progress up to 1', async () => {
    const db = await labDatabase();
    const fractions: number[] = [];
    const fast = await exploreFast(db, findScenario('race')!, { strategy: 'skip-locked', fencing: true }, { onProgress: (p) => fractions.push(p.fraction) });
    expect(fast.stepsInferred).toBeGreaterThan(0);
    expect(fractions.at(-1)).toBe(1);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('stops when cancelled, and gives up past its state budget', async () => {
    const db = await labDatabase();
    const race = findScenario('race')!;
    const settings: Settings = { strategy: 'naive', fencing: false };
    let calls = 0;
    await expect(exploreFast(db, race, settings, { cancelled: () => ++calls > 5 })).rejects.toBeInstanceOf(ExplorationCancelled);
    await expect(exploreFast(db, race, settings, { maxStates: 10 })).rejects.toBeInstanceOf(ExplorationTooLarge);
  });

  it('says what it counted past its budget: distinct states, or histories where the state is the history (an isolation level, advisory locks)', async () => {
    const plain: Settings = { strategy: 'naive', fencing: false };
    expect(new ExplorationTooLarge(20, plain).because).toBe('it has more than 20 distinct states');
    expect(new ExplorationTooLarge(20, { ...plain, strategy: 'skip-locked', isolation: 'repeatable-read' }).because).toBe(
      'it has more than 20 distinct histories',
    );
    const { definition } = await claimStrategyFromFile(join(__dirname, '../fixtures/claims/que-advisory.sql'), { onServer: true });
    expect(new ExplorationTooLarge(20, { ...plain, definition }).because).toBe('it has more than 20 distinct histories');
  });

  it('samples, labelled with its seed and size, when a scenario is too large to explore whole', async () => {
    const db = await labDatabase();
    const race = findScenario('race')!;
    const settings: Settings = { strategy: 'naive', fencing: false };
    const sampled = await exploreForLab(db, race, settings, { maxStates: 10, sampleSize: 12, seed: 7 });
    expect(sampled.coverage).toBe('sample');
    expect(sampled.seed).toBe(7);
    expect(sampled.total).toBe(12);
    expect(sampled.sampledBecause).toContain('10');
    const again = await exploreForLab(db, race, settings, { maxStates: 10, sampleSize: 12, seed: 7 });
    expect(counts(again.groups)).toEqual(counts(sampled.groups));
    const whole = await exploreForLab(db, race, settings);
    expect(whole.coverage).toBe('all');
    // Naive workers always take five steps each (select, update, two calls, complete): 10!/(5!·5!) orders.
    expect(whole.total).toBe(252);
  });
});
