/**
 * Time you can see (issue 18, 3.4), on traces recorded by the real engine (PGlite): lease bars reach the
 * row's lease_expires_at and move on at each heartbeat, the time axis spaces the clock's moves by their
 * seconds, and a stuck worker's hung model call is a span.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { secondsOf } from '../../src/sim/clock';
import type { Settings, Trace } from '../../src/sim/types';
import { layoutTimeline, type TimelineLayout } from '../../src/timeline/layout';
import { CLOCK_GAP_SLOTS, PRESENT_EDGE_SLOTS, TIME_SLOTS_PER_SECOND, type TimelineAxis, traceModel, uAtSeconds } from '../../src/timeline/model';
import { runScenario } from '../support/lab';

const SIZE = { width: 1280, height: 420 };
const EVERYTHING = { x0: -1e6, x1: 1e6 };

function scripted(id: string, settings: Partial<Settings> = {}): Promise<Trace> {
  return runScenario(id, 'script', settings, { finish: { kind: 'round-robin' } });
}

const traces: Record<string, Trace> = {};
beforeAll(async () => {
  traces.heartbeat = await scripted('heartbeat');
  traces.race = await scripted('race', { strategy: 'naive', fencing: false });
  traces.paused = await scripted('paused-worker', { fencing: true });
  // The README's split-ownership picture: A wakes after B's reclaim and marks the run done, unfenced.
  traces.pausedUnfenced = await runScenario('paused-worker', ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A'], {
    strategy: 'skip-locked',
    fencing: false,
  });
  traces.stuck = await scripted('stuck-heartbeat');
});

function layout(trace: Trace, position: number, axis: TimelineAxis = 'steps'): TimelineLayout {
  return layoutTimeline(trace, SIZE, EVERYTHING, { position, axis });
}

/** Pixels per slot coordinate and the pixel of u = 0, read off two marks. */
function scaleOf(l: TimelineLayout, trace: Trace, axis: TimelineAxis): (u: number) => number {
  const model = traceModel(trace, axis);
  const [a, b] = [l.marks[0]!, l.marks.at(-1)!];
  const k = (b.x - a.x) / (model.u[b.step]! - model.u[a.step]!);
  return (u) => a.x + (u - model.u[a.step]!) * k;
}

/** lease_expires_at of A's run in the row after step i (seconds). */
function rowExpiry(trace: Trace, i: number, runId: number): number | null {
  return secondsOf(trace.steps[i]!.runs.find((r) => r.run_id === runId)?.lease_expires_at ?? null);
}

describe('lease bars end at lease_expires_at', () => {
  it('each heartbeat that moves lease_expires_at is a renewal, and the bar’s end moves forward with it', () => {
    const trace = traces.heartbeat!;
    const lease = traceModel(trace).leases.find((l) => l.worker === 'A')!;
    const heartbeats = trace.steps.filter((s) => s.actor === 'A' && s.action === 'heartbeat' && s.verdict === 'ok');
    expect(heartbeats.length).toBeGreaterThanOrEqual(2);
    // The claim's expiry, then one entry per heartbeat, each later than the one before; each is the row's.
    expect(lease.expiresAt.map((e) => e.step).slice(1)).toEqual(heartbeats.map((s) => s.index));
    for (const entry of lease.expiresAt) expect(entry.seconds).toBe(rowExpiry(trace, entry.step, lease.runId));
    for (let i = 1; i < lease.expiresAt.length; i++) expect(lease.expiresAt[i]!.seconds).toBeGreaterThan(lease.expiresAt[i - 1]!.seconds!);

    for (const axis of ['steps', 'time'] as const) {
      for (const heartbeat of heartbeats) {
        // The bar's end just before the heartbeat, and just after it: the renewal moves it on.
        const before = layout(trace, heartbeat.index, axis).bars.find((b) => b.worker === 'A')!.x1;
        const at = layout(trace, heartbeat.index + 1, axis);
        const bar = at.bars.find((b) => b.worker === 'A')!;
        expect(bar.open).toBe(true);
        expect(bar.expiresAt).toBe(rowExpiry(trace, heartbeat.index, lease.runId));
        // Every renewal revealed so far is drawn, the latest at the heartbeat's mark.
        expect(bar.renewals.map((r) => r.step)).toEqual(heartbeats.filter((h) => h.index <= heartbeat.index).map((h) => h.index));
        expect(bar.renewals.at(-1)!.x).toBe(at.marks.find((m) => m.step === heartbeat.index)!.x);
        // The end is ahead of the present, and later than where the lease would have ended without the renewal.
        expect(bar.x1).toBeGreaterThan(bar.presentX);
        expect(bar.x1).toBeGreaterThan(bar.renewals.at(-1)!.fromX);
        expect(bar.x1, `${axis} axis, step ${heartbeat.index + 1}`).toBeGreaterThan(before);
      }
    }
  });

  it('on the time axis a fresh 60 s lease reaches exactly 60 s ahead of its claim', () => {
    const trace = traces.race!;
    // After A's UPDATE (step 3): A believes run 123 is its own, expiring at 15:01:00, the clock at 15:00:00.
    const l = layout(trace, 3, 'time');
    const bar = l.bars.find((b) => b.worker === 'A')!;
    expect(bar.expiresAt).toBe(60);
    const x = scaleOf(layout(trace, trace.steps.length, 'time'), trace, 'time');
    const model = traceModel(trace, 'time');
    expect(bar.x1).toBeCloseTo(x(model.u[2]! + PRESENT_EDGE_SLOTS + 60 * TIME_SLOTS_PER_SECOND), 6);
    // Let go (completed): the bar ends where the worker let it go, not at an expiry the row no longer has.
    const done = layout(trace, trace.steps.length, 'time').bars.find((b) => b.worker === 'A')!;
    expect(done.open).toBe(false);
    expect(done.expiresAt).toBeNull();
  });

  it('a lease that already expired while believed is not drawn reaching ahead', () => {
    const trace = traces.paused!;
    const l = layout(trace, trace.steps.length);
    const a = l.bars.find((b) => b.worker === 'A')!;
    expect(a.segments.map((s) => s.state)).toContain('expired');
    expect(a.x1).toBeLessThanOrEqual(Math.max(a.presentX, a.segments.at(-1)!.x1));
  });

  it('once another worker’s unfenced write has finished the run (lease_expires_at NULL), the bar no longer reaches ahead', () => {
    const trace = traces.pausedUnfenced!;
    const last = trace.steps.length - 1;
    expect(trace.steps[last]!.runs.find((r) => r.run_id === 123)).toMatchObject({ status: 'done', lease_expires_at: null });
    const b = layout(trace, trace.steps.length).bars.find((x) => x.worker === 'B')!;
    expect(b.open).toBe(true);
    expect(b.expiresAt).toBeNull();
    expect(b.x1).toBe(b.presentX);
    // One step earlier the row still held B's lease, and the bar reached its expiry.
    const before = layout(trace, last).bars.find((x) => x.worker === 'B')!;
    expect(before.expiresAt).not.toBeNull();
    expect(before.x1).toBeGreaterThan(before.presentX);
  });
});

describe('the time axis', () => {
  it('spaces a clock move by its seconds and an instant by one slot; the step axis keeps its fixed gap', () => {
    const trace = traces.paused!;
    const time = traceModel(trace, 'time');
    const steps = traceModel(trace, 'steps');
    let moves = 0;
    for (let i = 1; i < trace.steps.length; i++) {
      const seconds = trace.steps[i]!.clockSeconds - trace.steps[i - 1]!.clockSeconds;
      if (seconds !== 0) moves++;
      expect(time.u[i]! - time.u[i - 1]!).toBeCloseTo(1 + seconds * TIME_SLOTS_PER_SECOND, 9);
      expect(steps.u[i]! - steps.u[i - 1]!).toBeCloseTo(seconds === 0 ? 1 : 1 + CLOCK_GAP_SLOTS, 9);
    }
    expect(moves).toBeGreaterThanOrEqual(2);
    // A 51 s move is long on the time axis: more than eight instants.
    expect(time.u.at(-1)!).toBeGreaterThan(steps.u.at(-1)! + 8);
  });

  it('maps a clock time into the gap where the clock passed it, and ahead of the present past the last step', () => {
    const model = { axis: 'time' as const, u: [0, 1, 2 + 60 * TIME_SLOTS_PER_SECOND], seconds: [0, 0, 60] };
    expect(uAtSeconds(model, 0, 3)).toBe(0);
    expect(uAtSeconds(model, 30, 3)).toBeCloseTo(1 + (1 + 60 * TIME_SLOTS_PER_SECOND) / 2, 9);
    expect(uAtSeconds(model, 60, 3)).toBe(model.u[2]);
    // Only two steps revealed: 60 s is still to come.
    expect(uAtSeconds(model, 60, 2)).toBeCloseTo(1 + PRESENT_EDGE_SLOTS + 60 * TIME_SLOTS_PER_SECOND, 9);
    // The step axis draws time still to come short, and never more than a few slots.
    expect(uAtSeconds({ ...model, axis: 'steps' }, 3600, 2)).toBeLessThanOrEqual(1 + PRESENT_EDGE_SLOTS + 3);
  });

  it('is the same trace either way: the same marks in the same order, and the step axis is the default', () => {
    const trace = traces.heartbeat!;
    const time = layout(trace, trace.steps.length, 'time');
    const steps = layoutTimeline(trace, SIZE, EVERYTHING, { position: trace.steps.length });
    expect(time.marks.map((m) => [m.step, m.lane, m.verdict])).toEqual(steps.marks.map((m) => [m.step, m.lane, m.verdict]));
    expect(steps).toEqual(layout(trace, trace.steps.length, 'steps'));
  });
});

describe('a stuck worker’s hung model call', () => {
  it('is a span in its lane from its claim, open while it still holds the run; the worker that is not stuck has none', () => {
    const trace = traces.stuck!;
    const model = traceModel(trace);
    const hung = model.spans.filter((s) => s.kind === 'hung');
    expect(hung.map((s) => s.lane)).toEqual(['A']);
    const lease = model.leases.find((l) => l.worker === 'A')!;
    expect(hung[0]!.start).toBe(lease.start);
    expect(hung[0]!.end).toBe(lease.end);
    const l = layout(trace, trace.steps.length);
    const span = l.spans.find((s) => s.kind === 'hung')!;
    expect(span.lane).toBe('A');
    expect(span.text).toBeNull();
    // Between the lease bar and the marks, so it never sits on a mark or its label.
    const bar = l.bars.find((b) => b.worker === 'A')!;
    const marks = l.marks.filter((m) => m.lane === 'A');
    expect(span.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    for (const mark of marks) expect(span.y + span.height).toBeLessThanOrEqual(mark.y - mark.r);
    // A's heartbeats keep moving the lease on while the call hangs.
    expect(bar.renewals.length).toBeGreaterThanOrEqual(3);
  });

  it('is not drawn where no worker is stuck', () => {
    expect(traceModel(traces.heartbeat!).spans.filter((s) => s.kind === 'hung')).toEqual([]);
  });
});
