/** The backpressure view's store and links, with a fake worker: what a link opens, what Play and Step show. */
import { describe, expect, it } from 'vitest';
import type { TickMetrics } from '../../src/sim/backpressure/types';
import { decodeBackpressureLink, encodeBackpressureLink, isBackpressureFragment } from '../../src/store/backpressure-link';
import { type BackpressureEvent, createBackpressureStore, type LanesRequest, lastShowable, linkOf } from '../../src/store/backpressure-store';
import { decodeView } from '../../src/store/permalink';

function tick(second: number): TickMetrics {
  return {
    second,
    arrived: 1,
    pending: [0, 0],
    running: [1, 0],
    calling: 1,
    done: 0,
    stopped: 0,
    costCents: [second, 0],
    idleClaims: 0,
    throttledCalls: 0,
    steps: 1,
  };
}

function harness() {
  const sent: LanesRequest[] = [];
  let listener: (message: BackpressureEvent) => void = () => undefined;
  const frames: ((now: number) => void)[] = [];
  const store = createBackpressureStore({
    client: () => ({
      send: (request) => sent.push(request),
      subscribe: (l) => {
        listener = l;
        return () => undefined;
      },
    }),
    frame: (callback) => frames.push(callback),
  });
  const lane = (policy: 'fifo' | 'fair', from: number, to: number, done: boolean) =>
    listener({
      kind: 'chunk',
      id: sent.at(-1)!.id,
      policy,
      ticks: Array.from({ length: to - from }, (_, i) => tick(from + i)),
      claims: [],
      totalRuns: 1,
      steps: 1,
      done,
      finished: done,
    });
  return { store, sent, lane, frames };
}

describe('backpressure links', () => {
  it('round-trip every knob, and bring hostile values into range', () => {
    const link = decodeBackpressureLink('#backpressure&preset=overload&workers=5&maxCostPerRunCents=none&at=12');
    expect(link.config.workers).toBe(5);
    expect(link.config.maxCostPerRunCents).toBeNull();
    expect(link.at).toBe(12);
    expect(decodeBackpressureLink(`#${encodeBackpressureLink(link)}`)).toEqual(link);
    const hostile = decodeBackpressureLink('#backpressure&preset=nope&workers=1e9&seed=-5&at=x&arrivalsPerSecond=NaN');
    expect(hostile.presetId).toBe('starvation');
    expect(hostile.config.workers).toBe(32);
    expect(hostile.config.seed).toBe(0);
    expect(hostile.at).toBeNull();
  });

  it("are not the race lab's links", () => {
    expect(isBackpressureFragment('#backpressure&preset=starvation')).toBe(true);
    expect(isBackpressureFragment('#scenario=race')).toBe(false);
    expect(decodeView('#backpressure&preset=starvation')).toBeNull();
  });
});

describe('the backpressure store', () => {
  it("asks the worker for both claims with the link's knobs and shows the link's second once computed", () => {
    const { store, sent, lane } = harness();
    store.getState().open('#backpressure&preset=starvation&workers=3&at=5');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.config.workers).toBe(3);
    expect(sent[0]!.policies).toEqual(['fifo', 'fair']);
    lane('fifo', 0, 10, true);
    expect(store.getState().cursor).toBe(0); // fair has nothing yet
    lane('fair', 0, 8, true);
    expect(store.getState().cursor).toBe(5);
    expect(linkOf(store.getState())).toMatch(/workers=3.*at=5$/);
  });

  it('Step moves one second; Play runs to the end by itself and the link then says "end"', () => {
    const { store, lane, frames } = harness();
    store.getState().open('#backpressure&preset=starvation&at=0');
    lane('fifo', 0, 30, true);
    lane('fair', 0, 20, true);
    store.getState().step();
    expect(store.getState().cursor).toBe(1);
    store.getState().setSpeed(10);
    store.getState().play();
    let now = 0;
    while (frames.length > 0) {
      now += 500;
      frames.shift()!(now);
    }
    expect(store.getState().playing).toBe(false);
    expect(store.getState().cursor).toBe(lastShowable(store.getState().lanes));
    expect(store.getState().cursor).toBe(29);
    expect(linkOf(store.getState())).toMatch(/at=end$/);
  });

  it('a changed knob starts a new simulation; answers to the old one are ignored', () => {
    const { store, sent, lane } = harness();
    store.getState().open('#backpressure&preset=starvation');
    const old = sent[0]!.id;
    store.getState().setKnob('workers', 6);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.config.workers).toBe(6);
    sent.push({ ...sent[1]!, id: old }); // answer as the old request
    lane('fifo', 0, 10, true);
    expect(store.getState().lanes.fifo.ticks).toHaveLength(0);
  });
});
