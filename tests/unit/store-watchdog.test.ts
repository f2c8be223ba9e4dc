/**
 * The watchdog on the page's side of the engine: a request that neither answers nor reports progress
 * within the limit ends the worker, starts a new one and fails with WatchdogError.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { createLabStore } from '../../src/store/lab-store';
import { type Engine, type EngineEvent, WatchdogError, WorkerEngine } from '../../src/worker/client';
import { LocalEngine } from '../../src/worker/local-engine';
import type { EngineRequest, EngineResultOf, FromWorker, ToWorker } from '../../src/worker/protocol';

/** A Worker that answers only when the test says so. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  received: ToWorker[] = [];
  terminated = false;
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(message: ToWorker): void {
    this.received.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  send(message: FromWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWorker>);
  }
}

describe('WorkerEngine watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWorker.made = [];
  });
  afterEach(() => vi.useRealTimers());

  function engine() {
    const events: EngineEvent[] = [];
    const e = new WorkerEngine({ createWorker: () => new FakeWorker() as unknown as Worker, watchdogMs: 2000 });
    e.subscribe((event) => events.push(event));
    return { e, events, worker: () => FakeWorker.made.at(-1)! };
  }

  it('holds requests until Postgres is ready, without counting the start against them', async () => {
    const { e, worker } = engine();
    const answer = e.request({ type: 'apply', candidates: ['A'], fallback: false });
    vi.advanceTimersByTime(10_000);
    expect(worker().received).toHaveLength(0);
    worker().send({ kind: 'ready', bootMs: 900 });
    expect(worker().received).toHaveLength(1);
    const id = worker().received[0]!.id;
    worker().send({ kind: 'result', id, result: { token: 'A', refused: [], steps: [], status: { movable: [], isOver: true, nextEventSeconds: null, clockSeconds: 0 } } });
    await expect(answer).resolves.toMatchObject({ token: 'A' });
    expect(FakeWorker.made).toHaveLength(1);
  });

  it('ends a worker that does not answer within 2 s and starts another', async () => {
    const { e, events, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const first = worker();
    const answer = e.request({ type: 'runaway' });
    const failed = expect(answer).rejects.toBeInstanceOf(WatchdogError);
    vi.advanceTimersByTime(1999);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(2);
    await failed;
    expect(first.terminated).toBe(true);
    expect(FakeWorker.made).toHaveLength(2);
    expect(events.at(-1)).toEqual({ kind: 'starting', restart: true });
  });

  it('lets a long replay live as long as it reports progress', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const answer = e.request({ type: 'load', scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: [], onInapplicable: 'stop' });
    const id = worker().received[0]!.id;
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(1500);
      worker().send({ kind: 'progress', id });
    }
    expect(worker().terminated).toBe(false);
    worker().send({ kind: 'error', id, message: 'no' });
    await expect(answer).rejects.toThrow('no');
  });

  it('ignores answers from a worker it already ended', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const old = worker();
    const answer = e.request({ type: 'runaway' });
    vi.advanceTimersByTime(2001);
    await expect(answer).rejects.toBeInstanceOf(WatchdogError);
    old.send({ kind: 'result', id: 1, result: {} as never });
    expect(FakeWorker.made).toHaveLength(2);
  });
});

/** A real engine that hangs (throws WatchdogError) on the n-th request, as a restarted worker would. */
class FlakyEngine implements Engine {
  private count = 0;
  constructor(
    private readonly inner: Engine,
    private readonly hangOn: number,
  ) {}
  request<R extends EngineRequest>(request: R): Promise<EngineResultOf<R>> {
    this.count++;
    if (this.count === this.hangOn) return Promise.reject(new WatchdogError(request));
    return this.inner.request(request);
  }
  subscribe(listener: (event: EngineEvent) => void) {
    return this.inner.subscribe(listener);
  }
  restart() {}
}

describe('the store after a restart', () => {
  let db: Promise<LabDatabase>;
  beforeEach(() => {
    db ??= bootLabDatabase();
  });

  it('replays the schedule and keeps the learner where they were', async () => {
    // Request 1 opens the link; request 2 (the next step) hangs.
    const store = createLabStore({ engine: new FlakyEngine(new LocalEngine(() => db), 2), storage: null });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A,B,A&step=3');
    await store.getState().stepWorker('B');
    const state = store.getState();
    expect(state.schedule).toEqual(['A', 'B', 'A']);
    expect(state.position).toBe(3);
    expect(state.notices.at(-1)?.title).toBe('Postgres stopped answering while stepping worker B, so the lab restarted it.');
    expect(state.notices.at(-1)?.details[0]).toContain('It replayed your 3 steps');
  });

  it('opens the link it was opening when the first load hangs', async () => {
    const store = createLabStore({ engine: new FlakyEngine(new LocalEngine(() => db), 1), storage: null });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A,B,A&step=2');
    expect(store.getState().schedule).toEqual(['A', 'B', 'A']);
    expect(store.getState().position).toBe(2);
  });
});
