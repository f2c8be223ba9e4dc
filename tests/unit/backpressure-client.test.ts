/** The backpressure view on the page's engine: stretches asked in order, a watchdog's restart survived, a newer request winning. */
import { describe, expect, it } from 'vitest';
import type { TickMetrics } from '../../src/sim/backpressure/types';
import { backpressureOnLabClient, STRETCH_SECONDS } from '../../src/store/backpressure-client';
import type { BackpressureEvent } from '../../src/store/backpressure-store';
import { type LabClient, type LabClientEvent, WatchdogError } from '../../src/webworker/client';
import type { BackpressureChunk, BackpressureRequest, LabRequest } from '../../src/webworker/protocol';
import { findPreset } from '../../src/sim/backpressure/presets';

const config = findPreset('starvation')!.config;

function tick(second: number): TickMetrics {
  return {
    second,
    arrived: 1,
    pending: [0, 0],
    running: [0, 0],
    calling: 0,
    done: 0,
    stopped: 0,
    costCents: [0, 0],
    idleClaims: 0,
    throttledCalls: 0,
    steps: 1,
  };
}

/** A fake engine whose lanes are `length` seconds long; `answer` may replace an answer with an error. */
function fakeEngine(length: number, answer?: (count: number) => Error | null) {
  const asked: BackpressureRequest[] = [];
  let listener: (event: LabClientEvent) => void = () => undefined;
  const engine: LabClient = {
    async request(request: LabRequest) {
      if (request.type !== 'backpressure') throw new Error('only backpressure here');
      asked.push(request);
      const failure = answer?.(asked.length);
      if (failure) throw failure;
      const until = Math.min(length, request.from + request.seconds);
      const chunk: BackpressureChunk = {
        ticks: Array.from({ length: until - request.from }, (_, i) => tick(request.from + i)),
        claims: [],
        totalRuns: 1,
        steps: until,
        done: until >= length,
        finished: until >= length,
      };
      return chunk as never;
    },
    act(action) {
      return action((request) => engine.request(request));
    },
    subscribe(l) {
      listener = l;
      l({ kind: 'ready', bootMs: 5 });
      return () => undefined;
    },
    restart() {},
  };
  return { engine, asked, fail: (message: string) => listener({ kind: 'failed', message }) };
}

function collect(client: ReturnType<typeof backpressureOnLabClient>) {
  const heard: BackpressureEvent[] = [];
  client.subscribe((message) => heard.push(message));
  return heard;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the backpressure view on the page's engine", () => {
  it('asks for one stretch after another, FIFO then fair, until each lane is done', async () => {
    const length = STRETCH_SECONDS * 2 + 7;
    const { engine, asked } = fakeEngine(length);
    const client = backpressureOnLabClient(() => engine);
    const heard = collect(client);
    client.send({ id: 1, config, policies: ['fifo', 'fair'] });
    await settle();
    expect(asked.map((r) => [r.policy, r.from])).toEqual([
      ['fifo', 0],
      ['fifo', STRETCH_SECONDS],
      ['fifo', STRETCH_SECONDS * 2],
      ['fair', 0],
      ['fair', STRETCH_SECONDS],
      ['fair', STRETCH_SECONDS * 2],
    ]);
    expect(heard[0]).toEqual({ kind: 'ready', bootMs: 5 });
    const chunks = heard.filter((m) => m.kind === 'chunk');
    expect(chunks.filter((c) => c.policy === 'fifo').flatMap((c) => c.ticks.map((t) => t.second))).toEqual(Array.from({ length }, (_, i) => i));
    expect(chunks.map((c) => c.done)).toEqual([false, false, true, false, false, true]);
  });

  it('asks again when the watchdog replaced the worker, and reports any other failure', async () => {
    const watchdog = new WatchdogError({ type: 'console', sql: 'SELECT 1', upTo: 0, maxRows: 1 }, 1500, 'spare');
    const { engine, asked } = fakeEngine(STRETCH_SECONDS + 1, (count) => (count === 2 ? watchdog : null));
    const client = backpressureOnLabClient(() => engine);
    const heard = collect(client);
    client.send({ id: 1, config, policies: ['fifo'] });
    await settle();
    expect(asked.map((r) => r.from)).toEqual([0, STRETCH_SECONDS, STRETCH_SECONDS]);
    expect(heard.filter((m) => m.kind === 'chunk').at(-1)).toMatchObject({ done: true });

    const broken = fakeEngine(10, () => new Error('Postgres fell over'));
    const brokenClient = backpressureOnLabClient(() => broken.engine);
    const brokenHeard = collect(brokenClient);
    brokenClient.send({ id: 7, config, policies: ['fifo'] });
    await settle();
    expect(brokenHeard.at(-1)).toEqual({ kind: 'error', id: 7, message: 'Postgres fell over' });
    broken.fail('no wasm');
    expect(brokenHeard.at(-1)).toEqual({ kind: 'boot-failed', message: 'no wasm' });
  });

  it('drops an older request at its next stretch when a newer one comes', async () => {
    const { engine, asked } = fakeEngine(STRETCH_SECONDS * 5);
    const client = backpressureOnLabClient(() => engine);
    const heard = collect(client);
    client.send({ id: 1, config, policies: ['fifo', 'fair'] });
    client.send({ id: 2, config: { ...config, workers: 3 }, policies: ['fifo'] });
    await settle();
    expect(heard.filter((m) => m.kind === 'chunk' && m.id === 1)).toEqual([]);
    expect(asked.filter((r) => r.config.workers === 3).map((r) => r.from)).toEqual([0, 1, 2, 3, 4].map((n) => n * STRETCH_SECONDS));
    expect(asked.filter((r) => r.config.workers !== 3)).toHaveLength(1);
  });
});
