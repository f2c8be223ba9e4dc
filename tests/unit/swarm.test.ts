/** The swarm's generator (one seed, one scenario) and the step-by-step comparison its ground truth relies on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { compareTraces, sameData } from '../../src/engine/differential';
import { runSchedule } from '../../src/engine/run';
import { playSwarmSeed } from '../../src/engine/swarm';
import { defaultSettings } from '../../src/scenarios';
import { MAX_SWARM_SEED, swarmScenario } from '../../src/scenarios/swarm';
import { parseToken } from '../../src/sim/schedule';
import { LAB_STRATEGY_IDS } from '../../src/strategies';

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('swarmScenario', () => {
  it('gives the same scenario for the same seed, and other scenarios for other seeds', () => {
    expect(swarmScenario(42)).toEqual(swarmScenario(42));
    expect(JSON.stringify(swarmScenario(42))).toBe(JSON.stringify(swarmScenario(42)));
    const distinct = new Set(SEEDS.map((seed) => JSON.stringify({ ...swarmScenario(seed), id: '', title: '' })));
    expect(distinct.size).toBe(SEEDS.length);
  });

  it('stays within what a scenario may be: 2–4 workers, 1–4 runs, at most 2 faults, a script that names only its own workers and runs', () => {
    for (const seed of SEEDS) {
      const scenario = swarmScenario(seed);
      const workers = scenario.workers.map((w) => w.id);
      const runs = scenario.runs.map((r) => r.runId);
      expect(workers.length, `seed ${seed}`).toBeGreaterThanOrEqual(2);
      expect(workers.length, `seed ${seed}`).toBeLessThanOrEqual(4);
      expect(runs.length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
      expect(runs.length, `seed ${seed}`).toBeLessThanOrEqual(4);
      expect(new Set(runs).size).toBe(runs.length);
      expect(scenario.faults.length).toBeLessThanOrEqual(2);
      expect(scenario.script.length).toBeGreaterThanOrEqual(12);
      for (const token of scenario.script.map(parseToken)) {
        if ('worker' in token) expect(workers).toContain(token.worker);
        if ('runId' in token) expect(runs).toContain(token.runId);
      }
      if (scenario.workers.some((w) => w.stuck)) expect(scenario.heartbeatSeconds).not.toBeNull();
    }
  });

  it('covers every strategy, both fencings, both kinds of fault, stuck workers and runs that are not pending', () => {
    const scenarios = SEEDS.map(swarmScenario);
    expect(new Set(scenarios.map((s) => s.defaultStrategy))).toEqual(new Set(LAB_STRATEGY_IDS));
    expect(new Set(scenarios.map((s) => s.defaultFencing))).toEqual(new Set([true, false]));
    expect(new Set(scenarios.flatMap((s) => s.faults.map((f) => f.kind)))).toEqual(new Set(['pause', 'crash']));
    expect(new Set(scenarios.map((s) => s.workers.length))).toEqual(new Set([2, 3, 4]));
    expect(scenarios.some((s) => s.workers.some((w) => w.stuck))).toBe(true);
    expect(scenarios.some((s) => s.heartbeatSeconds === null)).toBe(true);
    expect(new Set(scenarios.flatMap((s) => s.runs.map((r) => r.status ?? 'pending')))).toEqual(new Set(['pending', 'running', 'done', 'cancelled']));
    // Run order is not id order in some scenario: the oldest run is not always the lowest id.
    expect(scenarios.some((s) => s.runs.some((r, i) => i > 0 && r.createdAtSeconds < s.runs[0]!.createdAtSeconds))).toBe(true);
  });

  it('refuses a seed that is not a whole number from 0 to 2^32 - 1', () => {
    expect(swarmScenario(0).id).toBe('swarm-0');
    expect(swarmScenario(MAX_SWARM_SEED).id).toBe(`swarm-${MAX_SWARM_SEED}`);
    for (const seed of [-1, 1.5, MAX_SWARM_SEED + 1, Number.NaN]) expect(() => swarmScenario(seed)).toThrow(RangeError);
  });
});

describe('playing a seed and comparing traces', () => {
  let db: LabDatabase;
  beforeAll(async () => {
    db = await bootLabDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('plays the same schedules and traces every time for one seed', async () => {
    const first = await playSwarmSeed(db, 11);
    const again = await playSwarmSeed(db, 11);
    expect(first.schedules.map((s) => s.name)).toEqual(['script', 'random walk']);
    expect(again.schedules.map((s) => s.schedule)).toEqual(first.schedules.map((s) => s.schedule));
    expect(again.schedules.map((s) => s.trace)).toEqual(first.schedules.map((s) => s.trace));
    expect(first.settings).toEqual({ strategy: first.scenario.defaultStrategy, fencing: first.scenario.defaultFencing });
  });

  it('finds no divergence between equal traces, and the first step, table or anomaly that differs otherwise', async () => {
    const { scenario, settings, schedules } = await playSwarmSeed(db, 3);
    const { schedule, trace } = schedules[0]!;
    const same = structuredClone(trace);
    expect(compareTraces(trace, { trace: same, refused: null }, scenario, settings, schedule).divergence).toBeNull();

    const stepChanged = structuredClone(trace);
    stepChanged.steps[2]!.clockSeconds += 1;
    expect(compareTraces(trace, { trace: stepChanged, refused: null }, scenario, settings, schedule).divergence).toMatchObject({
      where: expect.stringMatching(/^step 3 /),
      pglite: { clockSeconds: trace.steps[2]!.clockSeconds },
    });

    const tableChanged = structuredClone(trace);
    // Its own copy: finalRuns is the last step's table itself, which would differ first.
    tableChanged.finalRuns = tableChanged.finalRuns.map((run, index) => ({ ...run, progress: run.progress + (index === 0 ? 1 : 0) }));
    expect(compareTraces(trace, { trace: tableChanged, refused: null }, scenario, settings, schedule).divergence?.where).toBe('final runs table');

    const shorter = structuredClone(trace);
    shorter.steps.pop();
    expect(compareTraces(trace, { trace: shorter, refused: null }, scenario, settings, schedule).divergence?.where).toBe('number of steps');

    const refused = { trace: structuredClone(trace), refused: { index: 4, token: 'A', reason: 'A cannot move' } };
    expect(compareTraces(trace, refused, scenario, settings, schedule).divergence).toMatchObject({ where: 'token 5 (A)', postgres: 'refused: A cannot move' });
  });

  it('keeps a woken write waiting while a FOR UPDATE claim woken with it holds its row (seed 170, as a real server does)', async () => {
    const scenario = swarmScenario(170);
    const trace = await runSchedule(db, scenario, defaultSettings(scenario), 'A,+5,+90,B,C,D,A,A,B,crash:C,D'.split(','));
    const woken = (token: string) => trace.steps.filter((step) => step.token === token && step.resumed).map((step) => `${step.actor} ${step.action}`);
    // B's commit wakes C's claim, which relocks run 234 on its way to 231; A's heartbeat of 234 must wait for C.
    expect(woken('B')).toEqual(['C claim']);
    expect(trace.steps.find((step) => step.token === 'B' && step.actor === 'C')?.locks).toEqual([{ session: 'C', runIds: [231, 234] }]);
    const afterB = trace.steps.filter((step) => step.token === 'B').at(-1)!;
    expect(afterB.workers.find((w) => w.id === 'A')).toMatchObject({ phase: 'blocked', waitingAction: 'heartbeat' });
    // C's crash hands both runs to D's claim, so A waits on until D commits, then updates nothing: B owns 234.
    expect(woken('crash:C')).toEqual(['D claim']);
    expect(woken('D')).toEqual(['A heartbeat']);
    expect(trace.steps.at(-1)).toMatchObject({ actor: 'A', verdict: 'rejected', outcome: { status: 'ok', rowCount: 0 } });
  });

  it('compares data as node:util would: key order aside, types, lengths and missing keys matter', () => {
    expect(sameData({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameData({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameData([1, 2], [1, 2, 3])).toBe(false);
    expect(sameData({ a: undefined }, {})).toBe(false);
    expect(sameData({ a: null }, { a: undefined })).toBe(false);
    expect(sameData([1], { 0: 1 })).toBe(false);
    expect(sameData(0, -0)).toBe(false);
  });
});
