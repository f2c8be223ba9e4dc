/** The timeline's layout, on traces recorded by the real engine (PGlite) and on small hand-built ones. */
import { byFirstStep } from '../../src/sim/anomalies';
import { initialWorker } from '../../src/sim/simulated-worker';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Settings, Trace, TraceStep, Verdict, WorkerState } from '../../src/sim/types';
import { ANOMALY_NAMES } from '../../src/timeline/describe';
import { markShape } from '../../src/timeline/layers/marks';
import { defaultTimelineView, followLatest, layoutTimeline, type TimelineLayout, timelineHeight } from '../../src/timeline/layout';
import { textWidth } from '../../src/timeline/text-width';
import { anomaliesAt } from '../../src/timeline/model';
import { runScenario } from '../support/lab';

const SIZE = { width: 1280, height: 420 };
/** Wide enough to hold any trace here: layout clamps it to the whole trace. */
const EVERYTHING = { x0: -1e6, x1: 1e6 };

function scripted(id: string, settings: Partial<Settings> = {}): Promise<Trace> {
  return runScenario(id, 'script', settings, { finish: { kind: 'round-robin' } });
}

const traces: Record<string, Trace> = {};
beforeAll(async () => {
  traces.race = await scripted('race', { strategy: 'naive', fencing: false });
  traces.lockWait = await scripted('lock-wait', { strategy: 'for-update' });
  traces.pausedFenced = await scripted('paused-worker', { fencing: true });
  traces.pausedUnfenced = await scripted('paused-worker', { fencing: false });
  traces.crash = await scripted('crash-orphan');
  traces.kill = await scripted('cancel-kill');
  traces.three = await scripted('three-workers');
  traces.restart = await runScenario('crash-orphan', ['A', 'A', 'A', 'crash:A', 'restart:A', '+61', 'A', 'A']);
});

function layout(trace: Trace, position = trace.steps.length, size = SIZE): TimelineLayout {
  return layoutTimeline(trace, size, EVERYTHING, { position });
}

function markOf(l: TimelineLayout, step: number) {
  const mark = l.marks.find((m) => m.step === step);
  if (!mark) throw new Error(`no mark for step ${step}`);
  return mark;
}

function stepWhere(trace: Trace, test: (s: TraceStep) => boolean): TraceStep {
  const step = trace.steps.find(test);
  if (!step) throw new Error('no such step');
  return step;
}

describe('lanes', () => {
  it('has the clock & operator lane, then one lane per worker, in order', () => {
    expect(layout(traces.race!).lanes.map((l) => [l.id, l.kind])).toEqual([
      ['system', 'system'],
      ['A', 'worker'],
      ['B', 'worker'],
    ]);
    expect(layout(traces.three!).lanes.map((l) => l.id)).toEqual(['system', 'A', 'B', 'C']);
  });

  it("has the scenario's workers' lanes before any step (the app records the trace as the learner steps)", () => {
    const l = layout({ ...traces.three!, steps: [], anomalies: [] });
    expect(l.lanes.map((x) => x.id)).toEqual(['system', 'A', 'B', 'C']);
    expect(l.marks).toEqual([]);
    expect(l.anomalyBand).not.toBeNull();
  });

  it('lanes stack without overlapping, and the natural height holds them all', () => {
    const l = layout(traces.three!);
    for (const [a, b] of l.lanes.slice(0, -1).map((lane, i) => [lane, l.lanes[i + 1]!] as const)) expect(b.top).toBeGreaterThanOrEqual(a.top + a.height);
    const natural = timelineHeight(traces.three!, SIZE.width);
    const fitted = layoutTimeline(traces.three!, { width: SIZE.width, height: natural });
    expect(fitted.height).toBe(natural);
    expect(fitted.lanes.at(-1)!.top + fitted.lanes.at(-1)!.height).toBeLessThan(natural);
  });

  it("a crashed worker's life line ends at its crash", () => {
    const l = layout(traces.crash!);
    const crash = stepWhere(traces.crash!, (s) => s.action === 'crash');
    const lane = l.lanes.find((x) => x.id === 'A')!;
    expect(lane.lines.map((line) => line.x1)).toEqual([markOf(l, crash.index).x]);
    expect(l.lanes.find((x) => x.id === 'B')!.lines.map((line) => line.x1)).toEqual([markOf(l, traces.crash!.steps.length - 1).x]);
  });

  it('a worker that restarts under its name gets a second life line, from its restart on', () => {
    const trace = traces.restart!;
    const l = layout(trace);
    const crash = stepWhere(trace, (s) => s.action === 'crash');
    const restart = stepWhere(trace, (s) => s.action === 'restart');
    const lane = l.lanes.find((x) => x.id === 'A')!;
    expect(lane.lines).toEqual([
      { x0: expect.any(Number), x1: markOf(l, crash.index).x },
      { x0: markOf(l, restart.index).x, x1: markOf(l, trace.steps.length - 1).x },
    ]);
    expect(markOf(l, restart.index).label?.text).toBe('restart');
    expect(markOf(l, restart.index).sublabel?.text).toBe('life 2');
    // Before the restart is revealed, the lane's one line still ends at the crash.
    expect(layout(trace, restart.index).lanes.find((x) => x.id === 'A')!.lines).toHaveLength(1);
  });
});

describe('marks', () => {
  it('draws exactly one mark per revealed step, in its actor’s lane, left to right', () => {
    for (const trace of [traces.race!, traces.pausedFenced!, traces.kill!]) {
      for (let position = 0; position <= trace.steps.length; position++) {
        const l = layout(trace, position);
        expect(l.marks.map((m) => m.step)).toEqual([...Array(position).keys()]);
        for (const mark of l.marks) {
          const actor = trace.steps[mark.step]!.actor;
          expect(mark.lane).toBe(actor === 'clock' || actor === 'operator' ? 'system' : actor);
          const lane = l.lanes.find((x) => x.id === mark.lane)!;
          expect(mark.y).toBeGreaterThan(lane.top);
          expect(mark.y).toBeLessThan(lane.top + lane.height);
        }
        for (let i = 1; i < l.marks.length; i++) expect(l.marks[i]!.x).toBeGreaterThan(l.marks[i - 1]!.x);
      }
    }
  });

  it('a position past the end shows every step, and a negative one none', () => {
    expect(layout(traces.race!, 999).marks).toHaveLength(traces.race!.steps.length);
    expect(layout(traces.race!, -3).marks).toHaveLength(0);
  });

  it('gives each verdict its own shape, so colour is never the only cue', () => {
    const verdicts: Verdict[] = ['ok', 'empty', 'rejected', 'error', 'blocked', 'event'];
    const shapes = verdicts.map((verdict) => markShape({ verdict, action: 'work' }));
    expect(new Set(shapes).size).toBe(verdicts.length);
    expect(markShape({ verdict: 'event', action: 'crash' })).toBe('cross');
  });

  it('marks carry the verdict and the words a learner reads', () => {
    const l = layout(traces.race!);
    expect(l.marks.map((m) => m.label?.text)).toEqual(['SELECT', 'SELECT', 'UPDATE', 'UPDATE', 'work', 'work', 'work', 'work', 'done', 'done']);
    // What stopped the write, named under the mark (issue 31, 7.8): B's completion finds the run already done.
    expect(markOf(l, 9)).toMatchObject({ verdict: 'rejected', shape: 'no-entry', sublabel: { text: 'status check' } });
    const lockWait = layout(traces.lockWait!);
    const blocked = stepWhere(traces.lockWait!, (s) => s.verdict === 'blocked');
    expect(markOf(lockWait, blocked.index)).toMatchObject({ shape: 'hourglass', sublabel: { text: 'waits' } });
  });

  it('labels in one row of one lane never overlap, at 1280 and 800 px', () => {
    for (const width of [1280, 800, 560]) {
      for (const trace of Object.values(traces)) {
        const l = layoutTimeline(trace, { width, height: timelineHeight(trace, width) });
        const rows = new Map<string, [number, number][]>();
        for (const mark of l.marks) {
          for (const [text, y, font] of [
            [mark.label?.text, mark.label?.y, 11],
            [mark.sublabel?.text, mark.sublabel?.y, 9.5],
          ] as const) {
            if (text === undefined || y === undefined) continue;
            const key = `${mark.lane}@${y}`;
            const half = textWidth(text, font) / 2;
            rows.set(key, [...(rows.get(key) ?? []), [mark.x - half, mark.x + half]]);
          }
        }
        for (const spans of rows.values()) {
          for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
        }
      }
    }
  });
});

describe('the clock', () => {
  it('leaves a gap and a break where the clock moves, and labels the new time', () => {
    const trace = traces.pausedFenced!;
    const l = layout(trace);
    const moved = trace.steps.filter((s, i) => i > 0 && s.clockSeconds !== trace.steps[i - 1]!.clockSeconds).map((s) => s.index);
    expect(l.breaks.map((b) => b.step)).toEqual(moved);
    for (const b of l.breaks) {
      expect(b.x).toBeGreaterThan(markOf(l, b.step - 1).x);
      expect(b.x).toBeLessThan(markOf(l, b.step).x);
    }
    const slot = markOf(l, 2).x - markOf(l, 1).x;
    const gapped = markOf(l, moved[0]!).x - markOf(l, moved[0]! - 1).x;
    expect(gapped).toBeGreaterThan(slot * 1.4);
    expect(l.timeTicks.map((t) => t.label)).toEqual(['15:00:00', '15:00:10', '15:01:01', '15:01:40', '15:01:41']);
  });

  it('reveals no time the learner has not reached', () => {
    const l = layout(traces.pausedFenced!, 4);
    expect(l.timeTicks.map((t) => t.label)).toEqual(['15:00:00', '15:00:10']);
    expect(l.breaks.map((b) => b.step)).toEqual([3]);
  });
});

describe('blocked spans', () => {
  it('join the step that had to wait to the step where it resumed', () => {
    const trace = traces.lockWait!;
    const blocked = stepWhere(trace, (s) => s.verdict === 'blocked');
    const resumed = stepWhere(trace, (s) => s.resumed);
    expect(resumed.actor).toBe(blocked.actor);
    const l = layout(trace);
    const spans = l.spans.filter((s) => s.kind === 'blocked');
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({ lane: blocked.actor, fromStep: blocked.index, toStep: resumed.index, text: 'waits for A' });
    expect(spans[0]!.x0).toBe(markOf(l, blocked.index).x);
    expect(spans[0]!.x1).toBe(markOf(l, resumed.index).x);
  });

  it('stay open while the resumption is not yet revealed', () => {
    const trace = traces.lockWait!;
    const resumed = stepWhere(trace, (s) => s.resumed);
    const l = layout(trace, resumed.index);
    expect(l.spans.find((s) => s.kind === 'blocked')).toMatchObject({ toStep: null });
  });
});

describe('pauses and crashes', () => {
  it('a pause spans pause → resume in the worker’s lane, with its length in seconds', () => {
    const trace = traces.pausedFenced!;
    const l = layout(trace);
    const pause = stepWhere(trace, (s) => s.action === 'pause');
    const resume = stepWhere(trace, (s) => s.action === 'resume');
    expect(l.spans.filter((s) => s.kind === 'pause')).toEqual([
      expect.objectContaining({ lane: 'A', fromStep: pause.index, toStep: resume.index, text: 'paused 90 s' }),
    ]);
  });

  it('a kill puts a crash marker in the killed worker’s lane', () => {
    const l = layout(traces.kill!);
    const kill = stepWhere(traces.kill!, (s) => s.action === 'kill');
    expect(l.crashes).toEqual([expect.objectContaining({ worker: 'A', step: kill.index, killed: true })]);
    expect(markOf(l, kill.index).lane).toBe('system');
  });
});

describe('lease bars', () => {
  it('run from the claim to where the belief ended, labelled with run and generation', () => {
    const trace = traces.race!;
    const l = layout(trace);
    expect(l.bars.map((b) => [b.worker, b.runId, b.generation, b.label])).toEqual([
      ['A', 123, 18, 'run 123 · gen 18'],
      ['B', 123, 19, 'run 123 · gen 19'],
    ]);
    for (const bar of l.bars) {
      const claim = stepWhere(trace, (s) => s.actor === bar.worker && s.action === 'naive-update');
      const state = claim.workers.find((w) => w.id === bar.worker)!;
      expect(state.generation).toBe(bar.generation);
      expect(bar.x0).toBe(markOf(l, claim.index).x);
      const complete = stepWhere(trace, (s) => s.actor === bar.worker && s.action === 'complete');
      expect(bar.x1).toBe(markOf(l, complete.index).x);
      expect(bar.open).toBe(false);
    }
  });

  it('once B overwrites A’s claim, the rest of A’s bar is superseded by generation 19', () => {
    const l = layout(traces.race!);
    const a = l.bars.find((b) => b.worker === 'A')!;
    expect(a.segments.map((s) => s.state)).toEqual(['valid', 'superseded']);
    expect(a.segments[1]!.x0).toBe(markOf(l, 3).x);
    expect(a.segments[1]!.text).toContain('superseded by gen 19');
  });

  it('a paused worker’s lease expires in the clock gap, then is superseded by the rival’s committed claim', () => {
    const trace = traces.pausedFenced!;
    const l = layout(trace);
    const a = l.bars.find((b) => b.worker === 'A')!;
    expect(a.generation).toBe(18);
    expect(a.segments.map((s) => s.state)).toEqual(['valid', 'expired', 'superseded']);
    expect(a.expiries).toHaveLength(1);
    expect(a.expiries[0]!.seconds).toBe(60);
    // The lease ran out while the clock moved from 15:00:10 to 15:01:01.
    const after = stepWhere(trace, (s) => s.clockSeconds > 60);
    expect(a.expiries[0]!.x).toBe(l.breaks.find((b) => b.step === after.index)!.x);
    const commit = stepWhere(trace, (s) => s.actor === 'B' && s.action === 'commit');
    expect(a.segments[2]!.x0).toBe(markOf(l, commit.index).x);
    const b = l.bars.find((x) => x.worker === 'B')!;
    expect(b.generation).toBe(19);
    expect(b.segments.map((s) => s.state)).toEqual(['valid']);
  });

  it('is open while the worker still believes it, at the last revealed step', () => {
    const trace = traces.pausedFenced!;
    const l = layout(trace, 8);
    const a = l.bars.find((b) => b.worker === 'A')!;
    expect(a.open).toBe(true);
    expect(a.x1).toBeGreaterThan(markOf(l, 7).x);
  });

  it('a crashed worker’s lease lingers as an orphan until the rival’s claim commits', () => {
    const trace = traces.crash!;
    const l = layout(trace);
    const a = l.bars.find((b) => b.worker === 'A')!;
    expect(a.segments.map((s) => s.state)).toEqual(['valid', 'orphan', 'orphan-expired']);
    const crash = stepWhere(trace, (s) => s.action === 'crash');
    expect(a.segments[1]!.x0).toBe(markOf(l, crash.index).x);
    const commit = stepWhere(trace, (s) => s.actor === 'B' && s.action === 'commit');
    expect(a.x1).toBe(markOf(l, commit.index).x);
    expect(a.expiries.map((e) => e.seconds)).toEqual([60]);
  });
});

describe('anomaly links', () => {
  it('join exactly the steps of each anomaly, with its name', () => {
    for (const trace of [traces.race!, traces.pausedFenced!, traces.pausedUnfenced!, traces.kill!]) {
      const l = layout(trace);
      expect(trace.anomalies.length).toBeGreaterThan(0);
      expect(l.links.map((x) => [x.kind, x.steps])).toEqual([...trace.anomalies].sort(byFirstStep).map((a) => [a.kind, a.steps]));
      for (const link of l.links) {
        expect(link.stops.map((s) => s.x)).toEqual(link.steps.map((s) => markOf(l, s).x));
        expect(link.x0).toBe(markOf(l, link.steps[0]!).x);
        expect(link.x1).toBe(markOf(l, link.steps.at(-1)!).x);
        expect([`${ANOMALY_NAMES[link.kind]} · run ${link.runId}`, ANOMALY_NAMES[link.kind]]).toContain(link.label);
        expect(link.y).toBeGreaterThan(l.plot.bottom);
      }
    }
  });

  it('the fenced pause links B’s superseding claim to A’s rejected write; unfenced, it is split ownership', () => {
    const fenced = layout(traces.pausedFenced!).links;
    const claim = stepWhere(traces.pausedFenced!, (s) => s.actor === 'B' && s.action === 'claim');
    const write = stepWhere(traces.pausedFenced!, (s) => s.actor === 'A' && s.verdict === 'rejected');
    expect(fenced).toEqual([expect.objectContaining({ kind: 'stale-write-rejected', steps: [claim.index, write.index] })]);
    expect(layout(traces.pausedUnfenced!).links.map((x) => x.kind)).toEqual(['split-ownership']);
  });

  it('appear only once the steps that make them are revealed', () => {
    const trace = traces.race!;
    // After both SELECTs nobody has paid twice yet.
    expect(layout(trace, 2).links).toEqual([]);
    const firstWork = stepWhere(trace, (s) => s.action === 'work');
    // One worker's model call is not yet a duplicate: the other has to pay too.
    expect(layout(trace, firstWork.index + 1).links.map((x) => x.kind)).not.toContain('duplicate-execution');
    const secondWork = stepWhere(trace, (s) => s.action === 'work' && s.actor !== firstWork.actor);
    const l = layout(trace, secondWork.index + 1);
    const duplicate = l.links.find((x) => x.kind === 'duplicate-execution');
    expect(duplicate?.steps).toEqual([firstWork.index, secondWork.index]);
    expect(anomaliesAt(trace, trace.steps.length)).toBe(trace.anomalies);
  });

  it('keeps the height still while stepping: the anomaly band is reserved from the start', () => {
    const trace = traces.race!;
    expect(timelineHeight(trace, 1280, 0)).toBe(timelineHeight(trace, 1280));
    expect(layout(trace, 1).anomalyBand).not.toBeNull();
  });
});

it('keeps each anomaly in its row while stepping, ordered by the step where it began', () => {
  const trace = traces.race!;
  const rowsAt = (position: number) => new Map(layout(trace, position).links.map((link) => [`${link.kind}:${link.runId}`, link.row]));
  let checked = 0;
  for (let position = 1; position < trace.steps.length; position++) {
    const before = rowsAt(position);
    const after = rowsAt(position + 1);
    // A step that adds no anomaly moves none of them.
    if (before.size === 0 || after.size !== before.size) continue;
    expect(after).toEqual(before);
    checked++;
  }
  expect(checked).toBeGreaterThan(2);
  const final = layout(trace).links;
  expect(final.map((link) => link.row)).toEqual(final.map((_, i) => i));
  const firstSteps = final.map((link) => Math.min(...link.steps));
  expect(firstSteps).toEqual([...firstSteps].sort((a, b) => a - b));
});

describe('view, zoom and culling', () => {
  it('is deterministic: the same input gives a deep-equal layout', () => {
    for (const trace of Object.values(traces)) {
      const copy = JSON.parse(JSON.stringify(trace)) as Trace;
      expect(layoutTimeline(copy, SIZE, undefined, { position: 7 })).toEqual(layoutTimeline(trace, SIZE, undefined, { position: 7 }));
      expect(layoutTimeline(copy, SIZE, { x0: 2, x1: 6 })).toEqual(layoutTimeline(trace, SIZE, { x0: 2, x1: 6 }));
    }
  });

  it('a window shows only the steps in it, at a wider slot', () => {
    const trace = traces.pausedFenced!;
    const full = layout(trace);
    const zoomed = layoutTimeline(trace, SIZE, { x0: 3.5, x1: 9 });
    expect(zoomed.slot).toBeGreaterThan(full.slot);
    expect(zoomed.marks.length).toBeLessThan(full.marks.length);
    for (const m of zoomed.marks) {
      expect(m.x).toBeGreaterThan(zoomed.plot.left - 2 * zoomed.slot);
      expect(m.x).toBeLessThan(zoomed.plot.right + 2 * zoomed.slot);
    }
  });

  it('on a 10,000-step trace draws only what is in view, and zooming out stops before the marks become a smear', () => {
    const trace = longTrace(10_000);
    const defaults = layoutTimeline(trace, SIZE);
    expect(defaults.slot).toBeGreaterThanOrEqual(40);
    expect(defaults.marks.at(-1)!.step).toBe(9_999);
    const widest = layoutTimeline(trace, SIZE, EVERYTHING);
    const plotWidth = widest.plot.right - widest.plot.left;
    expect(widest.marks.length).toBeLessThan(plotWidth / 2);
    expect(widest.slot).toBeGreaterThanOrEqual(2.9);
    // Slot coordinates: step 5000 sits past 5000, after 100 clock gaps.
    const middle = layoutTimeline(trace, SIZE, { x0: 5000, x1: 5030 });
    expect(middle.marks.length).toBeGreaterThan(25);
    expect(middle.marks.length).toBeLessThan(36);
    expect(middle.marks[0]!.step).toBeGreaterThan(4900);
    expect(middle.marks.at(-1)!.step - middle.marks[0]!.step).toBe(middle.marks.length - 1);
  });
});

describe('following the learner', () => {
  it('the default view of a long trace ends soon after the latest revealed step', () => {
    const trace = longTrace(2_000);
    for (const position of [2_000, 700, 701, 702, 703]) {
      const view = defaultTimelineView(trace, SIZE, position);
      const l = layoutTimeline(trace, SIZE, view, { position });
      expect(l.marks.at(-1)!.step).toBe(position - 1);
      const plotWidth = l.plot.right - l.plot.left;
      expect(l.marks.at(-1)!.x).toBeGreaterThan(l.plot.right - plotWidth / 4 - 2 * l.slot);
      expect(l.marks.at(-1)!.x).toBeLessThan(l.plot.right);
    }
  });

  it('a new step leaves the marks before it in place, but for an occasional rescale or page turn', () => {
    // As the learner steps: the trace so far, all of it revealed, in the view nobody zoomed.
    const firstMarkX = (trace: Trace, n: number, size: { width: number; height: number }) => {
      const sofar = { ...trace, steps: trace.steps.slice(0, n) };
      return layoutTimeline(sofar, size, undefined, { position: n }).marks[0]!.x;
    };
    const moves = (trace: Trace, size = SIZE) => {
      let count = 0;
      for (let n = 1; n < trace.steps.length; n++) if (Math.abs(firstMarkX(trace, n + 1, size) - firstMarkX(trace, n, size)) > 0.01) count++;
      return count;
    };
    // At 1280 px the race fits one plot of the widest slots: nothing ever moves. At 700 px it does not.
    expect(moves(traces.race!)).toBe(0);
    for (const [trace, size] of [
      [traces.race!, { width: 700, height: 420 }],
      [traces.three!, { width: 700, height: 420 }],
      [longTrace(200), SIZE],
    ] as const) {
      const count = moves(trace, size);
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(Math.ceil((trace.steps.length - 1) / 3));
    }
  });

  it('keeps a window that already shows the latest step, and otherwise moves it to end there', () => {
    const trace = longTrace(2_000);
    const view = { x0: 100, x1: 130 };
    const l = layoutTimeline(trace, SIZE, view, { position: 110 });
    expect(l.marks.map((m) => m.step)).toContain(109);
    expect(followLatest(trace, view, 110)).toBe(view);
    for (const position of [1_500, 20]) {
      const moved = followLatest(trace, view, position);
      expect(moved.x1 - moved.x0).toBeCloseTo(30);
      const shown = layoutTimeline(trace, SIZE, moved, { position });
      expect(shown.marks.at(-1)!.step).toBe(position - 1);
    }
  });

  it('overscan lays out a margin beyond the view, for a drag to slide into', () => {
    const trace = longTrace(2_000);
    const view = { x0: 500, x1: 530 };
    const plain = layoutTimeline(trace, SIZE, view);
    const wide = layoutTimeline(trace, SIZE, view, { overscan: 30 });
    expect(wide.view).toEqual(plain.view);
    expect(wide.marks.length).toBeGreaterThan(plain.marks.length * 2.5);
    expect(wide.marks[0]!.x).toBeLessThan(plain.plot.left - 20 * plain.slot);
  });
});

describe('legend', () => {
  it('lists every verdict and every kind of mark, whatever the trace shows so far', () => {
    const keys = (trace: Trace) => layout(trace).legend.map((item) => item.key);
    expect(keys(traces.lockWait!)).toEqual([
      'verdict-ok',
      'verdict-empty',
      'verdict-rejected',
      'verdict-error',
      'verdict-blocked',
      'verdict-event',
      'lease',
      'lease-stale',
      'lease-orphan',
      'expiry',
      'renewal',
      'hung',
      'pause',
      'crash',
      'clock-break',
      'anomaly',
    ]);
    expect(keys({ ...traces.race!, steps: [] })).toEqual(keys(traces.lockWait!));
  });

  it('wraps onto more rows when narrow, and stays inside the width', () => {
    const wide = layoutTimeline(traces.pausedFenced!, { width: 1280, height: 400 });
    const narrow = layoutTimeline(traces.pausedFenced!, { width: 560, height: 400 });
    const rows = (l: TimelineLayout) => new Set(l.legend.map((item) => item.y)).size;
    expect(rows(narrow)).toBeGreaterThan(rows(wide));
    for (const item of narrow.legend) expect(item.x).toBeLessThan(560);
  });
});

describe('hand-built traces', () => {
  it("an operator's cancel that waits for a lock is a blocked span in the clock & operator lane", () => {
    const trace = handTrace([
      { actor: 'A', action: 'claim', verdict: 'ok' },
      { actor: 'operator', action: 'cancel-request', verdict: 'blocked', outcome: { status: 'blocked', holders: ['A'] }, runId: 1 },
      { actor: 'A', action: 'commit', verdict: 'ok' },
      { actor: 'operator', action: 'cancel-request', verdict: 'ok', resumed: true, runId: 1 },
    ]);
    const l = layout(trace);
    expect(l.spans).toEqual([expect.objectContaining({ kind: 'blocked', lane: 'system', fromStep: 1, toStep: 3 })]);
    expect(l.marks.map((m) => m.lane)).toEqual(['A', 'system', 'A', 'system']);
  });

  it('a worker paused while it waits for a lock: the wait lasts until the statement runs, not until its next event', () => {
    const trace = handTrace(
      [
        { actor: 'A', action: 'claim', verdict: 'ok' },
        { actor: 'B', action: 'claim', verdict: 'blocked', outcome: { status: 'blocked', holders: ['A'] } },
        { actor: 'B', action: 'pause', verdict: 'event' },
        { actor: 'A', action: 'commit', verdict: 'ok' },
        { actor: 'B', action: 'claim', verdict: 'ok', resumed: true },
        { actor: 'B', action: 'resume', verdict: 'event' },
      ],
      ['A', 'B'],
    );
    const l = layout(trace);
    expect(l.spans.map((s) => [s.kind, s.lane, s.fromStep, s.toStep])).toEqual([
      ['blocked', 'B', 1, 4],
      ['pause', 'B', 2, 5],
    ]);
  });

  it('an empty trace lays out without marks', () => {
    const l = layout(handTrace([]));
    expect(l.marks).toEqual([]);
    expect(l.lanes.map((x) => x.id)).toEqual(['system']);
  });
});

const idle = (id: string): WorkerState => initialWorker({ id });

function handTrace(steps: Partial<TraceStep>[], workers = ['A']): Trace {
  return {
    scenario: 'hand',
    settings: { strategy: 'skip-locked', fencing: true },
    schedule: [],
    steps: steps.map((s, index) => ({
      index,
      token: typeof s.actor === 'string' && /^[A-Z]$/.test(s.actor) ? s.actor : 'cancel:1',
      tokenIndex: index,
      actor: 'A',
      action: 'work',
      sqlId: null,
      sql: null,
      params: [],
      outcome: null,
      verdict: 'ok',
      runId: null,
      clockSeconds: 0,
      facts: [],
      note: '',
      engineFact: null,
      engineNote: null,
      resumed: false,
      staleWrite: null,
      workers: workers.map(idle),
      runs: [],
      locks: [],
      anomalies: [],
      ...s,
    })),
    anomalies: [],
    finalRuns: [],
    database: 'pglite',
  };
}

/** A long, repetitive trace: A and B take turns, and the clock moves every 50 steps. */
function longTrace(length: number): Trace {
  const actions = ['claim', 'commit', 'work', 'complete'] as const;
  return handTrace(
    Array.from({ length }, (_, i) => ({
      actor: i % 2 === 0 ? 'A' : 'B',
      action: actions[Math.floor(i / 2) % actions.length]!,
      verdict: 'ok' as const,
      clockSeconds: Math.floor(i / 50) * 5,
    })),
    ['A', 'B'],
  );
}
