/**
 * The watchdog on the page's side of the engine: a request that neither answers nor reports progress
 * within its limit ends the worker and fails with WatchdogError; a spare booted beside it (once a
 * statement that can run away is coming) takes over, else a new worker starts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { createLabStore } from '../../src/store/lab-store';
import { type LabClientEvent, SPEC_LIMIT_MS, WATCHDOG_MS, WatchdogError, WebWorkerLabClient } from '../../src/webworker/client';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import type { FromWebWorker, LoadRequest, ToWebWorker } from '../../src/webworker/protocol';
import { HangingLabClient } from '../support/hanging-client';

/** A Worker that answers only when the test says so. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: MessageEvent<FromWebWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  received: ToWebWorker[] = [];
  terminated = false;
  constructor() {
    FakeWorker.made.push(this);
  }
  postMessage(message: ToWebWorker): void {
    this.received.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  send(message: FromWebWorker): void {
    this.onmessage?.({ data: message } as MessageEvent<FromWebWorker>);
  }
}

const PGLITE = { kind: 'pglite', liveProblem: null } as const;
const LIVE = { kind: 'live', version: 'PostgreSQL 17', where: 'localhost' } as const;
const CONSOLE = { type: 'console', sql: 'SELECT pg_sleep(100)', upTo: 0, maxRows: 10 } as const;
const LOAD: LoadRequest = { type: 'load', scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: [], onInapplicable: 'stop' };
const APPLY_RESULT = { token: 'A', refused: [], steps: [], status: { movable: [], isOver: true, nextEventSeconds: null, clockSeconds: 0 } };

describe('WebWorkerLabClient watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWorker.made = [];
  });
  afterEach(() => vi.useRealTimers());

  function engine() {
    const events: LabClientEvent[] = [];
    const e = new WebWorkerLabClient({ createWorker: () => new FakeWorker() as unknown as Worker, watchdogMs: 2000, statementLimitMs: 1500 });
    e.subscribe((event) => events.push(event));
    return { e, events, worker: () => FakeWorker.made.at(-1)! };
  }

  /** The error a request ends with, once the watchdog has fired. */
  function failure(answer: Promise<unknown>): Promise<WatchdogError> {
    return answer.then(
      () => {
        throw new Error('the request was answered');
      },
      (error: unknown) => error as WatchdogError,
    );
  }

  it('holds requests until Postgres is ready, without counting the start against them', async () => {
    const { e, worker } = engine();
    const answer = e.request({ type: 'apply', candidates: ['A'], fallback: false });
    vi.advanceTimersByTime(10_000);
    expect(worker().received).toHaveLength(0);
    worker().send({ kind: 'ready', bootMs: 900 });
    expect(worker().received).toHaveLength(1);
    const id = worker().received[0]!.id;
    worker().send({ kind: 'result', id, result: APPLY_RESULT });
    await expect(answer).resolves.toMatchObject({ token: 'A' });
    expect(FakeWorker.made).toHaveLength(1);
  });

  it("gives the engine's own requests 2 s, then ends the worker and starts Postgres in a new one (no spare was wanted)", async () => {
    const { e, events, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const first = worker();
    const error = failure(e.request({ type: 'apply', candidates: ['A'], fallback: false }));
    vi.advanceTimersByTime(1999);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(2);
    expect(await error).toMatchObject({ name: 'WatchdogError', limitMs: 2000, replacement: 'new' });
    expect(await error).toBeInstanceOf(WatchdogError);
    expect(first.terminated).toBe(true);
    expect(FakeWorker.made).toHaveLength(2);
    expect(events.at(-1)).toEqual({ kind: 'starting', restart: true });
  });

  it("gives a pasted spec a start's minute of silence, not the 2 s of the engine's own requests: its own Postgres starts first", async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const first = worker();
    const error = failure(e.request({ type: 'spec', text: 'session a step s { SELECT 1; }' }));
    vi.advanceTimersByTime(SPEC_LIMIT_MS - 1);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(2);
    expect(await error).toMatchObject({ name: 'WatchdogError', limitMs: SPEC_LIMIT_MS });
    expect(first.terminated).toBe(true);
  });

  it("on a machine so busy that the page's timers come late, counts only the time the page got: a slow statement is answered, not stopped", async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    const first = worker();
    const answer = e.request(CONSOLE);
    // Every tick of the deadline comes 450 ms late: 7 s of wall time, about 1.4 s of the page's.
    for (let i = 0; i < 14; i++) {
      vi.setSystemTime(Date.now() + 450);
      vi.advanceTimersByTime(50);
    }
    expect(first.terminated).toBe(false);
    const id = first.received[0]!.id;
    first.send({
      kind: 'result',
      id,
      result: { kind: 'rows', columns: ['answer'], rows: [[42]], rowCount: 1, ms: 1, at: { tokens: 0, clockSeconds: 0 } } as never,
    });
    await expect(answer).resolves.toMatchObject({ rows: [[42]] });
    // Still stopped in the end if the page's time runs out: late ticks count, only less.
    const stuck = failure(e.request(CONSOLE));
    for (let i = 0; i < 15; i++) {
      vi.setSystemTime(Date.now() + 450);
      vi.advanceTimersByTime(50);
    }
    expect(await stuck).toMatchObject({ limitMs: 1500 });
  });

  it('boots a spare beside the engine when a console statement is sent, and promotes it when the statement runs past 1.5 s', async () => {
    const { e, events, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    const first = worker();
    const error = failure(e.request(CONSOLE));
    expect(FakeWorker.made).toHaveLength(2);
    const spare = FakeWorker.made[1]!;
    expect(spare.received).toHaveLength(0);
    spare.send({ kind: 'ready', bootMs: 800, database: PGLITE });
    // The spare's own messages never count as the busy engine's progress.
    spare.send({ kind: 'progress', id: first.received[0]!.id });
    vi.advanceTimersByTime(1499);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(2);
    expect(await error).toMatchObject({ limitMs: 1500, replacement: 'spare' });
    expect(first.terminated).toBe(true);
    expect(spare.terminated).toBe(false);
    // No Postgres to wait for: the spare answers the replay at once.
    expect(events.slice(-2)).toEqual([
      { kind: 'starting', restart: true },
      { kind: 'ready', bootMs: 800, database: PGLITE },
    ]);
    const replay = e.request(LOAD);
    expect(spare.received.map((m) => m.request.type)).toEqual(['load']);
    expect(FakeWorker.made).toHaveLength(2);
    // Once the replay is answered and the engine is idle, the next spare boots.
    spare.send({ kind: 'error', id: spare.received[0]!.id, message: 'stop here' });
    await expect(replay).rejects.toThrow('stop here');
    expect(FakeWorker.made).toHaveLength(3);
    expect(e.spareState).toBe('starting');
  });

  it('adopts a spare that is still booting: requests wait for its start instead of a new one', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    const error = failure(e.request({ type: 'runaway' }));
    const spare = worker();
    expect(e.spareState).toBe('starting');
    vi.advanceTimersByTime(1501);
    expect(await error).toMatchObject({ limitMs: 1500, replacement: 'spare' });
    const replay = e.request(LOAD);
    expect(spare.received).toHaveLength(0);
    spare.send({ kind: 'ready', bootMs: 2500, database: PGLITE });
    expect(spare.received).toHaveLength(1);
    spare.send({ kind: 'result', id: spare.received[0]!.id, result: {} as never });
    await replay;
    expect(FakeWorker.made).toHaveLength(3);
  });

  it('boots the spare when the console opens, but not before Postgres itself has started', () => {
    const { e, worker } = engine();
    e.prepareSpare();
    expect(FakeWorker.made).toHaveLength(1);
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    expect(FakeWorker.made).toHaveLength(2);
    e.prepareSpare();
    expect(FakeWorker.made).toHaveLength(2);
  });

  it('keeps no spare on a live server, where Postgres ends a runaway statement itself: the watchdog is a 2 s backstop there', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900, database: LIVE });
    const first = worker();
    const error = failure(e.request(CONSOLE));
    expect(FakeWorker.made).toHaveLength(1);
    vi.advanceTimersByTime(1600);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(401);
    expect(await error).toMatchObject({ limitMs: 2000, replacement: 'new' });
    expect(FakeWorker.made).toHaveLength(2);
  });

  it('drops a spare that cannot start, and then starts Postgres afresh after a hang', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    const error = failure(e.request(CONSOLE));
    const spare = worker();
    spare.send({ kind: 'boot-failed', message: 'no memory' });
    expect(spare.terminated).toBe(true);
    expect(e.spareState).toBe('none');
    vi.advanceTimersByTime(1501);
    expect(await error).toMatchObject({ replacement: 'new' });
    expect(FakeWorker.made).toHaveLength(3);
    expect(FakeWorker.made[2]).not.toBe(spare);
  });

  it('lets a long replay live as long as it reports progress', async () => {
    const { e, worker } = engine();
    worker().send({ kind: 'ready', bootMs: 900 });
    const answer = e.request(LOAD);
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
    worker().send({ kind: 'ready', bootMs: 900, database: PGLITE });
    const old = worker();
    const error = failure(e.request({ type: 'runaway' }));
    vi.advanceTimersByTime(1501);
    expect(await error).toBeInstanceOf(WatchdogError);
    old.send({ kind: 'result', id: 1, result: {} as never });
    old.send({ kind: 'ready', bootMs: 1 });
    expect(e.spareState).toBe('none');
    expect(FakeWorker.made).toHaveLength(2);
  });
});

/** A real engine that hangs (throws WatchdogError) on the n-th request, as a restarted worker would. */
const hangingOn = (inner: InProcessLabClient, n: number) =>
  new HangingLabClient(inner, (_request, count) => (count === n ? { limitMs: WATCHDOG_MS, worker: 'new' } : null));

describe('the store after a restart', () => {
  let db: Promise<LabDatabase>;
  beforeEach(() => {
    db ??= bootLabDatabase();
  });

  it('replays the schedule and keeps the learner where they were', async () => {
    // Request 1 opens the link; request 2 (the next step) hangs.
    const store = createLabStore({ lab: hangingOn(new InProcessLabClient(() => db), 2), storage: null });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A,B,A&step=3');
    await store.getState().stepWorker('B');
    const state = store.getState();
    expect(state.schedule).toEqual(['A', 'B', 'A']);
    expect(state.position).toBe(3);
    expect(state.notices.at(-1)?.title).toBe('Postgres stopped answering while stepping worker B, so the lab restarted it.');
    expect(state.notices.at(-1)?.details[0]).toContain('It replayed your 3 steps');
  });

  it('opens the link it was opening when the first load hangs', async () => {
    const store = createLabStore({ lab: hangingOn(new InProcessLabClient(() => db), 1), storage: null });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A,B,A&step=2');
    expect(store.getState().schedule).toEqual(['A', 'B', 'A']);
    expect(store.getState().position).toBe(2);
  });
});
