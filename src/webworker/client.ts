/**
 * The page's side of the lab. A LabClient is what the store sends its requests through, in the order of
 * the one queue in front of the engine (lab-queue.ts); WebWorkerLabClient sends them to the lab's Web Worker
 * (engine.worker.ts, where a LabHost answers them), so it has at most one in flight, and watches it.
 *
 * A statement that never returns (inside PGlite, a lock wait spins forever, and nothing can interrupt a
 * statement) would leave the lab frozen. So each request has a watchdog: no answer and no sign of progress
 * within its limit, and the worker is terminated. The request fails with a WatchdogError; the store
 * replays the learner's schedule on the next engine and says what happened.
 *
 * Booting Postgres takes a second or more, too long to make the learner wait after their statement was
 * stopped. Only two requests can run away: the learner's console statements and the 'runaway' check (the
 * engine's own statements never wait: their locks are NOWAIT probes). So once such a request is coming,
 * the client boots a spare worker beside the busy one, and the watchdog promotes it instead of starting
 * Postgres from nothing. The spare is not started with the page, so the start and its memory stay lean.
 */
import type { YourSqlRefusal } from '../strategies/custom';
import { LabQueue, type Send } from './lab-queue';
import type { DatabaseInfo, LabRequest, LabResultOf, FromWebWorker, ToWebWorker } from './protocol';

/**
 * How long the engine's own requests may go without an answer or a sign of progress. They never wait for a
 * lock (their row locks are NOWAIT probes), so this is only a backstop against a bug: generous, because on a
 * slow or busy machine (a phone, a loaded CPU) a stretch of real work can go past 2 s without a progress
 * message, and replacing the engine then costs the learner more than it saves (measured: a backpressure
 * stretch went 0.9 s silent at load average 13 on 2 cores, past 2 s at 25-35).
 */
export const WATCHDOG_MS = 20_000;
/**
 * How long a statement that can run away (a console statement, the runaway check) gets on PGlite. Short
 * enough that stopping it and replaying the learner's steps on the spare ends within 2 s; on a live
 * server Postgres ends the statement itself at the same limit (postgres-console.ts).
 */
export const STATEMENT_LIMIT_MS = 1500;
/** The watchdog's deadline ticks this often, and a tick that comes late counts for at most LATE_TICK_CREDIT ticks (see arm()). */
const DEADLINE_TICK_MS = 50;
const LATE_TICK_CREDIT = 2;
/** Postgres starts in about a second here; a minute means something is wrong. */
const BOOT_TIMEOUT_MS = 60_000;
/**
 * A pasted spec first starts a Postgres of its own (initdb: about 3 s in a browser, 13 s measured at load
 * average 10 on 2 cores), which holds the worker's thread so it cannot say it is alive: a start's limit,
 * not a statement's. Once it runs, each permutation reports progress and re-arms the watchdog.
 */
export const SPEC_LIMIT_MS = BOOT_TIMEOUT_MS;

export type LabClientEvent =
  | { kind: 'starting'; restart: boolean }
  /** `recovered`: files of the lab's saved copy that were damaged, and read from the network instead (see bootLab). */
  | { kind: 'ready'; bootMs: number; database?: DatabaseInfo; recovered?: string[] }
  /** The engine moved to another database (live mode lost its server); the learner's steps were replayed there. */
  | { kind: 'database'; database: DatabaseInfo }
  | { kind: 'failed'; message: string };

/** What the store needs from the lab: the Web Worker in the browser (WebWorkerLabClient), the same host in process in Node tests (InProcessLabClient). */
export interface LabClient {
  /** One request, in its turn in the lab's queue. */
  request<R extends LabRequest>(request: R): Promise<LabResultOf<R>>;
  /** A learner action, in its turn in the same queue: it holds the turn across the requests it makes with `send`. */
  act<T>(action: (send: Send) => Promise<T>): Promise<T>;
  subscribe(listener: (event: LabClientEvent) => void): () => void;
  /** Starts a fresh engine after a failure (a failed boot). */
  restart(): void;
  /**
   * A statement that may run away is coming (the learner opened the SQL console): have a spare engine
   * booted, so one that does is recovered at once. Engines that cannot hang have nothing to prepare.
   */
  prepareSpare?(): void;
}

/** The engine stopped answering and was replaced: its state is gone. */
export class WatchdogError extends Error {
  override name = 'WatchdogError';
  constructor(
    readonly request: LabRequest,
    /** How long it went without an answer. */
    readonly limitMs: number,
    /** 'spare': a worker booted beforehand took over; 'new': Postgres is being started in a new worker. */
    readonly replacement: 'spare' | 'new',
  ) {
    super(`the engine did not answer within ${limitMs / 1000} s and was replaced`);
  }
}

/** A request failed in the lab's host: PostgreSQL raised an error, the host refused a step, or it failed itself (a bug or a failed start). */
export class LabHostError extends Error {
  override name = 'LabHostError';

  constructor(
    message: string,
    /** Which statement of the learner's the engine refused at a step, and why, when that is what failed (db/custom-claim-guard.ts). */
    readonly refused: YourSqlRefusal | null = null,
    /** The SQLSTATE when PostgreSQL raised the error; null when the lab failed on its own. */
    readonly sqlState: string | null = null,
  ) {
    super(message);
  }
}

/** Which statement of the learner's the engine refused at a step and why, if that is what `error` is, else null. */
export function refusalIn(error: unknown): YourSqlRefusal | null {
  return error instanceof LabHostError ? error.refused : null;
}

/** The request whose turn it is: waiting for the engine to be ready, then posted to it. */
interface Pending {
  id: number;
  request: LabRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  posted: boolean;
}

type ReadyMessage = Extract<FromWebWorker, { kind: 'ready' }>;

/** A worker booting (or booted) beside the busy one, idle until a watchdog promotes it. */
interface Spare {
  worker: Worker;
  /** Its 'ready' message, once it has booted. */
  ready: ReadyMessage | null;
}

/** What the spare is doing, for tests and the curious. */
export type SpareState = 'none' | 'starting' | 'ready';

export interface WebWorkerLabClientOptions {
  createWorker: () => Worker;
  watchdogMs?: number;
  statementLimitMs?: number;
  bootTimeoutMs?: number;
}

export class WebWorkerLabClient implements LabClient {
  private worker: Worker | null = null;
  private ready = false;
  private nextId = 1;
  private readonly lab = new LabQueue((request) => this.send(request));
  private inFlight: Pending | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private listeners = new Set<(event: LabClientEvent) => void>();
  private last: LabClientEvent = { kind: 'starting', restart: false };
  private spare: Spare | null = null;
  /** A statement that can run away has been or is about to be sent: keep a spare from now on. */
  private spareWanted = false;
  /** A spare failed to boot: do not keep trying (the watchdog then starts Postgres afresh, as before). */
  private spareBroken = false;
  /** Just after a promotion: the next spare waits for the first answer (the learner's replay), so as not to slow it. */
  private holdSpare = false;
  /** dispose() was called: the page starts another engine if it needs one. */
  disposed = false;
  private readonly watchdogMs: number;
  private readonly statementLimitMs: number;
  private readonly bootTimeoutMs: number;

  constructor(private readonly options: WebWorkerLabClientOptions) {
    this.watchdogMs = options.watchdogMs ?? WATCHDOG_MS;
    this.statementLimitMs = options.statementLimitMs ?? STATEMENT_LIMIT_MS;
    this.bootTimeoutMs = options.bootTimeoutMs ?? BOOT_TIMEOUT_MS;
    this.start(false);
  }

  request<R extends LabRequest>(request: R): Promise<LabResultOf<R>> {
    return this.lab.request(request);
  }

  act<T>(action: (send: Send) => Promise<T>): Promise<T> {
    return this.lab.act(action);
  }

  subscribe(listener: (event: LabClientEvent) => void): () => void {
    this.listeners.add(listener);
    listener(this.last);
    return () => this.listeners.delete(listener);
  }

  restart(): void {
    this.stop(new LabHostError('the engine was restarted'));
    this.dropSpare();
    this.spareBroken = false;
    this.start(true);
  }

  prepareSpare(): void {
    this.spareWanted = true;
    this.keepSpare();
  }

  get spareState(): SpareState {
    if (!this.spare) return 'none';
    return this.spare.ready ? 'ready' : 'starting';
  }

  /** Ends the workers for good (a hot reload in development replaces the whole engine). */
  dispose(): void {
    this.disposed = true;
    this.stop(new LabHostError('the engine was shut down'));
    this.dropSpare();
    this.spareWanted = false;
    this.listeners.clear();
  }

  private start(restart: boolean): void {
    this.emit({ kind: 'starting', restart });
    this.adopt(this.spawn());
  }

  /** A new worker, whose messages go to the engine while it is the engine's and to the spare's bookkeeping while it is the spare. */
  private spawn(): Worker {
    const worker = this.options.createWorker();
    worker.onmessage = (event: MessageEvent<FromWebWorker>) => {
      if (this.worker === worker) this.receive(event.data);
      else if (this.spare?.worker === worker) this.spareHeard(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      if (this.worker === worker) {
        event.preventDefault();
        this.fail(`the engine's worker failed: ${event.message || 'it could not be loaded'}`);
      } else if (this.spare?.worker === worker) {
        event.preventDefault();
        this.spareLost();
      }
    };
    return worker;
  }

  /** Makes `worker` the engine's; requests wait for its 'ready' unless it already sent it (a booted spare). */
  private adopt(worker: Worker, booted: ReadyMessage | null = null): void {
    this.worker = worker;
    this.ready = false;
    if (booted) this.receive(booted);
    else this.arm(this.bootTimeoutMs, () => this.fail(`Postgres did not start within ${this.bootTimeoutMs / 1000} s`));
  }

  private receive(message: FromWebWorker): void {
    switch (message.kind) {
      case 'ready':
        this.ready = true;
        this.disarm();
        this.emit({
          kind: 'ready',
          bootMs: message.bootMs,
          database: message.database,
          ...(message.bootRecovered?.length ? { recovered: message.bootRecovered } : {}),
        });
        this.post();
        return;
      case 'database':
        // A later subscriber still hears 'ready' first, now with the database the engine moved to.
        if (this.last.kind === 'ready') this.last = { ...this.last, database: message.database };
        for (const listener of this.listeners) listener({ kind: 'database', database: message.database });
        return;
      case 'boot-failed':
        this.fail(`Postgres could not start: ${message.message}`);
        return;
      case 'progress':
        if (this.inFlight?.id === message.id) this.arm(this.limitFor(this.inFlight.request), () => this.bark());
        return;
      case 'result':
      case 'error': {
        const pending = this.inFlight;
        if (!pending || pending.id !== message.id) return;
        this.inFlight = null;
        this.holdSpare = false;
        this.disarm();
        if (message.kind === 'result') pending.resolve(message.result);
        else pending.reject(new LabHostError(message.message, message.refused ?? null, message.sqlState ?? null));
        // Nothing else waiting: the moment to boot a replacement spare (after a promotion) without slowing the replay.
        if (this.lab.waitingCount === 0) this.keepSpare();
        return;
      }
    }
  }

  /** The queue's way to the engine: the request whose turn it is, posted once the engine is ready. */
  private send<R extends LabRequest>(request: R): Promise<LabResultOf<R>> {
    if (canRunAway(request)) {
      this.holdSpare = false;
      this.prepareSpare();
    }
    return new Promise((resolve, reject) => {
      this.inFlight = { id: this.nextId++, request, resolve: resolve as (value: unknown) => void, reject, posted: false };
      this.post();
    });
  }

  private post(): void {
    const pending = this.inFlight;
    if (!this.ready || !this.worker) return;
    if (!pending) {
      // Idle: the moment to boot a replacement spare (after a promotion) without slowing the replay.
      if (this.lab.waitingCount === 0) this.keepSpare();
      return;
    }
    if (pending.posted) return;
    pending.posted = true;
    this.arm(this.limitFor(pending.request), () => this.bark());
    const message: ToWebWorker = { id: pending.id, request: pending.request };
    this.worker.postMessage(message);
  }

  /**
   * A statement that can run away gets the statement limit on PGlite. On a live server Postgres ends it
   * itself (statement_timeout) at that limit, so there the watchdog keeps its longer backstop.
   */
  private limitFor(request: LabRequest): number {
    if (request.type === 'spec') return Math.max(this.watchdogMs, SPEC_LIMIT_MS);
    return canRunAway(request) && this.database()?.kind !== 'live' ? this.statementLimitMs : this.watchdogMs;
  }

  /** The request in flight took too long: end the worker and carry on with the spare, or a new one. */
  private bark(): void {
    const hung = this.inFlight;
    const limitMs = hung ? this.limitFor(hung.request) : this.watchdogMs;
    this.inFlight = null;
    this.stop(null);
    const spare = this.spare;
    this.spare = null;
    const replacement = spare ? 'spare' : 'new';
    if (hung) hung.reject(new WatchdogError(hung.request, limitMs, replacement));
    this.lab.engineReplaced((request) => new WatchdogError(request, limitMs, replacement));
    this.holdSpare = true;
    this.emit({ kind: 'starting', restart: true });
    // A spare still booting is adopted all the same: it is further along than a new worker would be.
    this.adopt(spare?.worker ?? this.spawn(), spare?.ready ?? null);
  }

  /**
   * Boots a spare if one is wanted and there is none. Not while the engine itself is still starting
   * (the two would share the CPU, and the spare comes when the engine is next idle), nor on a live server.
   */
  private keepSpare(): void {
    if (!this.spareWanted || this.spare || this.spareBroken || this.holdSpare || !this.ready) return;
    // A live server ends runaway statements itself; a spare there would only hold a second session open.
    if (this.database()?.kind === 'live') return;
    this.spare = { worker: this.spawn(), ready: null };
  }

  private spareHeard(message: FromWebWorker): void {
    if (!this.spare) return;
    if (message.kind === 'ready') this.spare.ready = message;
    else if (message.kind === 'boot-failed') this.spareLost();
    // Anything else (its warm-up's progress) is for no request of ours.
  }

  private spareLost(): void {
    this.dropSpare();
    this.spareBroken = true;
  }

  private dropSpare(): void {
    this.spare?.worker.terminate();
    this.spare = null;
  }

  private database(): DatabaseInfo | undefined {
    return this.last.kind === 'ready' ? this.last.database : undefined;
  }

  private fail(message: string): void {
    this.stop(new LabHostError(message));
    this.emit({ kind: 'failed', message });
  }

  private stop(error: Error | null): void {
    this.disarm();
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
    if (error) {
      if (this.inFlight) this.inFlight.reject(error);
      this.inFlight = null;
      this.lab.engineReplaced(() => error);
    }
  }

  /**
   * Calls `then` once the request has had `ms` of the page's time. On a quiet machine that is wall time.
   * On a machine so busy that the page's own timers come late, the worker is starved alike: there a
   * statement that needs a few milliseconds of CPU (a learner's SELECT 6 * 7) could wait past its limit
   * for a core and be stopped as a runaway. So the deadline ticks, and a late tick counts as at most
   * LATE_TICK_CREDIT ticks. A worker really running away spins on its own core and leaves the page's
   * timers on time, so it is stopped at its limit; a hidden tab, whose timers the browser slows down on
   * purpose, counts wall time.
   */
  private arm(ms: number, then: () => void): void {
    this.disarm();
    let credited = 0;
    let last = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      const late = Math.max(0, now - last);
      last = now;
      const hidden = typeof document !== 'undefined' && document.visibilityState === 'hidden';
      credited += hidden ? late : Math.min(late, DEADLINE_TICK_MS * LATE_TICK_CREDIT);
      if (credited < ms) return;
      this.disarm();
      then();
    }, DEADLINE_TICK_MS);
  }

  private disarm(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private emit(event: LabClientEvent): void {
    this.last = event;
    for (const listener of this.listeners) listener(event);
  }
}

/** The requests that run a statement that may never end. */
function canRunAway(request: LabRequest): boolean {
  return request.type === 'console' || request.type === 'runaway';
}
