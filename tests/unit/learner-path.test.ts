/**
 * Issue 31, item 7: the words and shapes a learner meets, where their logic lives outside React (the page
 * itself is walked in tests/e2e/learner-path.spec.ts). Traces are recorded by the real engine (PGlite).
 */
import { describe, expect, it } from 'vitest';
import { yAxisTicks } from '../../src/charts/draw';
import { findChallenge } from '../../src/lessons/challenges';
import { findScenario } from '../../src/scenarios';
import { listRuns, listSteps } from '../../src/sim/anomalies';
import { durationLabel } from '../../src/sim/clock';
import { simulatedShare } from '../../src/store/backpressure-store';
import { stepCountWords } from '../../src/store/script';
import { markLabel, markSublabel } from '../../src/timeline/describe';
import { layoutTimeline } from '../../src/timeline/layout';
import { dollars } from '../../src/ui/backpressure/model';
import { runScenario } from '../support/lab';

const SIZE = { width: 1280, height: 420 };
const EVERYTHING = { x0: -1e6, x1: 1e6 };

describe('one duration formatter', () => {
  it('says seconds below ten minutes, hours and minutes above, and spells units out for prose', () => {
    expect(durationLabel(40)).toBe('40 s');
    expect(durationLabel(364)).toBe('364 s');
    expect(durationLabel(10_800)).toBe('3 h');
    expect(durationLabel(3601)).toBe('1 h 1 s');
    expect(durationLabel(750)).toBe('12 min 30 s');
    expect(durationLabel(4 * 3600, 'long')).toBe('4 hours');
    expect(durationLabel(270, 'long')).toBe('4 minutes 30 s');
    expect(durationLabel(3600, 'long')).toBe('1 hour');
  });
});

describe('7.1 a clock move is labelled by how far the clock really moved', () => {
  it('"+40" cut in two by A waking up reads +39 s, then +1 s, as the narration says', async () => {
    const trace = await runScenario('paused-worker', ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A', 'B'], { strategy: 'skip-locked', fencing: true });
    const clock = trace.steps.filter((s) => s.action === 'advance');
    expect(clock.map((s) => markLabel(s, trace.steps[s.index - 1]))).toEqual(['+10 s', '+51 s', '+39 s', '+1 s']);
    expect(clock.map((s) => s.facts.find((fact) => fact.kind === 'clock-moved'))).toMatchObject([
      { fromSeconds: 0, toSeconds: 10 },
      { fromSeconds: 10, toSeconds: 61 },
      { fromSeconds: 61, toSeconds: 100 },
      { fromSeconds: 100, toSeconds: 101 },
    ]);
    // The gap's label on the axis says the same.
    const breaks = layoutTimeline(trace, SIZE, EVERYTHING).breaks;
    expect(breaks.map((b) => b.label)).toEqual(['+10 s', '+51 s', '+39 s', '+1 s']);
  });
});

describe('7.2 a claim rolled back by a crash never was held', () => {
  it("A's card holds nothing after the crash, its bar reads rolled back, and B's same generation is explained", async () => {
    const trace = await runScenario('race', ['A', 'crash:A', 'B', 'B', 'B'], { strategy: 'skip-locked', fencing: true });
    const crash = trace.steps[1]!;
    expect(crash.action).toBe('crash');
    expect(crash.workers.find((w) => w.id === 'A')).toMatchObject({ phase: 'crashed', runId: null, generation: null, leaseExpiresAtSeconds: null });
    expect(crash.facts).toContainEqual({ kind: 'claim-undone', worker: 'A', run: 123, generation: 18, row: { generation: 17, status: 'pending' } });
    expect(trace.steps[2]!.workers.find((w) => w.id === 'B')).toMatchObject({ runId: 123, generation: 18 });
    const bars = layoutTimeline(trace, SIZE, EVERYTHING).bars;
    const a = bars.find((b) => b.worker === 'A')!;
    expect(a.segments.filter((s) => s.x1 > s.x0).map((s) => s.state)).toEqual(['rolled-back']);
    expect(a.segments.map((s) => s.text).join(' ')).toContain('gen 18 rolled back');
    expect(bars.find((b) => b.worker === 'B')!.segments.map((s) => s.state)).toEqual(['valid']);
    // Before the crash is shown, A's claim was held (uncommitted): its bar is an ordinary one.
    const before = layoutTimeline(trace, SIZE, EVERYTHING, { position: 1 }).bars.find((b) => b.worker === 'A')!;
    expect(before.segments.map((s) => s.state)).toEqual(['valid']);
  });
});

describe('7.3 lists of runs and steps', () => {
  it('join with "and", agree in number, and name each step once', () => {
    expect(listRuns([124])).toBe('run 124');
    expect(listRuns([123, 124])).toBe('runs 123 and 124');
    expect(listSteps([1, 2, 3, 3])).toBe('steps 2, 3 and 4');
    expect(listSteps([3])).toBe('step 4');
  });

  it('"Make NOWAIT give up while a run is free", won with A,B,B,B: only run 124 was free, each step once', async () => {
    const challenge = findChallenge('nowait-gives-up')!;
    const trace = await runScenario(challenge.scenarioId, ['A', 'B', 'B', 'B'], challenge.settings);
    const judgement = challenge.judge(trace);
    expect(judgement.won).toBe(true);
    expect(judgement.message).toContain('while run 124 was free all along');
    expect(judgement.message).not.toMatch(/123 and 124 was/);
    expect(judgement.steps).toEqual([...new Set(judgement.steps)].sort((x, y) => x - y));
    expect(listSteps(judgement.steps)).toBe('steps 2, 3 and 4');
  });
});

describe('4 backpressure', () => {
  it('the cost axis ticks are distinct and in order, from the first second (nothing spent) to thousands of dollars', () => {
    for (const yMax of [0, 1, 3, 40, 95, 250, 12_345, 1_234_567]) {
      const labels = yAxisTicks({ yMax, caps: [], formatY: (v, step) => dollars(v, step), integer: true }, 120).map((t) => t.label);
      expect(new Set(labels).size, `${yMax} cents: ${labels.join(', ')}`).toBe(labels.length);
      const values = labels.map((l) => Number(l.slice(1)));
      expect(values, `${yMax} cents: ${labels.join(', ')}`).toEqual([...values].sort((x, y) => x - y));
    }
  });

  it('says how far the simulation has got: the share of runs finished, over both claims', () => {
    const lane = (finished: number, done = false) => ({
      ticks: [{ done: finished, stopped: 0 }] as never,
      claims: [],
      totalRuns: 100,
      steps: 0,
      done,
      finished: done,
    });
    expect(simulatedShare({ fifo: lane(30), fair: lane(0) })).toBeCloseTo(0.15);
    expect(simulatedShare({ fifo: lane(100, true), fair: lane(60) })).toBeCloseTo(0.8);
    expect(simulatedShare({ fifo: lane(100, true), fair: lane(100, true) })).toBe(1);
  });
});

describe('7.5 the step count', () => {
  it('does not call the steps played so far the whole script', () => {
    expect(stepCountWords(1, 9, false)).toBe('of 1 so far; the script has 9 more moves');
    expect(stepCountWords(3, 1, false)).toBe('of 3 so far; the script has 1 more move');
    expect(stepCountWords(5, 0, false)).toBe('of 5 so far');
    expect(stepCountWords(14, 0, true)).toBe('of 14');
  });
});

describe('7.6 the race scenario', () => {
  it('is titled by its pending runs', () => {
    const race = findScenario('race')!;
    expect(race.runs).toHaveLength(2);
    expect(race.title).toBe('Two workers, two pending runs');
  });
});

describe('7.7 graphile-worker #169', () => {
  it("A's plain read is marked read, not hb, and the clock's three hours read 3 h", async () => {
    const scenario = findScenario('incident-graphile-169')!;
    const trace = await runScenario(scenario.id, 'script');
    const read = trace.steps.find((s) => s.actor === 'A' && s.action === 'heartbeat')!;
    expect(markLabel(read, trace.steps[read.index - 1])).toBe('read');
    const clock = trace.steps.filter((s) => s.action === 'advance');
    expect(clock.map((s) => markLabel(s, trace.steps[s.index - 1]))).toEqual(['+3 h', '+1 h 1 s']);
    expect(clock[0]!.facts).toMatchObject([{ kind: 'clock-moved', fromSeconds: 0, toSeconds: 3 * 3600 }]);
  });
});

describe('7.8 the end of the naive race', () => {
  it("B's rejected completion names the status check under its mark", async () => {
    const trace = await runScenario('race', 'script', { strategy: 'naive', fencing: false }, { finish: { kind: 'round-robin' } });
    const rejected = trace.steps.filter((s) => s.verdict === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    for (const step of rejected) {
      expect(step.facts).toMatchObject([{ kind: 'write-missed', fencing: false }]);
      expect(markSublabel(step, trace.steps[step.index - 1])).toBe('status check');
    }
  });

  it('a write the fence rejects says fenced', async () => {
    const trace = await runScenario('paused-worker', ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A', 'B'], { strategy: 'skip-locked', fencing: true });
    const rejected = trace.steps.find((s) => s.verdict === 'rejected')!;
    expect(markSublabel(rejected, trace.steps[rejected.index - 1])).toBe('fenced');
  });
});
