/**
 * The page's side of the engine: sends requests to the Web Worker one at a time and watches them.
 *
 * A statement that never returns (inside PGlite, a lock wait spins forever) would leave the lab frozen.
 * So each request has a watchdog: no answer and no sign of progress within `watchdogMs`, and the worker
 * is terminated and a new one started. The request fails with a WatchdogError; the store replays the
 * learner's schedule on the new worker and says what happened.
 */
import type { DatabaseInfo, EngineRequest, EngineResultOf, FromWorker, ToWorker } from './protocol';

export const WATCHDOG_MS = 2000;
/** Postgres starts in about a second here; a minute means something is wrong. */
export const BOOT_TIMEOUT_MS = 60_000;

export type EngineEvent =
  | { kind: 'starting'; restart: boolean }
  | { kind: 'ready'; bootMs: number; database?: DatabaseInfo }
  /** The engine moved to another database (live mode lost its server); the learner's steps were replayed there. */
  | { kind: 'database'; database: DatabaseInfo }
  | { kind: 'failed'; message: string };

/** What the store needs from an engine: the worker in the browser, an in-process host in Node tests. */
export interface Engine {
  request<R extends EngineRequest>(request: R): Promise<EngineResultOf<R>>;
  subscribe(listener: (event: EngineEvent) => void): () => void;
  /** Starts a fresh engine after a failure (a failed boot). */
  restart(): void;
}

/** The engine stopped answering and was restarted: its state is gone. */
export class WatchdogError extends Error {
  override name = 'WatchdogError';
  constructor(readonly request: EngineRequest) {
    super(`the engine did not answer within ${WATCHDOG_MS / 1000} s and was restarted`);
  }
}

/** The engine itself failed (a bug or a failed start); the message says how. */
export class EngineError extends Error {
  override name = 'EngineError';
}

interface Pending {
  id: number;
  request: EngineRequest;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export interface WorkerEngineOptions {
  createWorker: () => Worker;
  watchdogMs?: number;
  bootTimeoutMs?: number;
}

export class WorkerEngine implements Engine {
  private worker: Worker | null = null;
  private ready = false;
  private nextId = 1;
  private queue: Pending[] = [];
  private inFlight: Pending | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<(event: EngineEvent) => void>();
  private last: EngineEvent = { kind: 'starting', restart: false };
  private readonly watchdogMs: number;
  private readonly bootTimeoutMs: number;

  constructor(private readonly options: WorkerEngineOptions) {
    this.watchdogMs = options.watchdogMs ?? WATCHDOG_MS;
    this.bootTimeoutMs = options.bootTimeoutMs ?? BOOT_TIMEOUT_MS;
    this.start(false);
  }

  request<R extends EngineRequest>(request: R): Promise<EngineResultOf<R>> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, request, resolve: resolve as (value: unknown) => void, reject });
      this.pump();
    });
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    listener(this.last);
    return () => this.listeners.delete(listener);
  }

  restart(): void {
    this.stop(new EngineError('the engine was restarted'));
    this.start(true);
  }

  /** Ends the worker for good (a hot reload in development replaces the whole engine). */
  dispose(): void {
    this.stop(new EngineError('the engine was shut down'));
    this.listeners.clear();
  }

  private start(restart: boolean): void {
    this.ready = false;
    this.emit({ kind: 'starting', restart });
    const worker = this.options.createWorker();
    this.worker = worker;
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (this.worker === worker) this.receive(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      if (this.worker !== worker) return;
      event.preventDefault();
      this.fail(`the engine's worker failed: ${event.message || 'it could not be loaded'}`);
    };
    this.arm(this.bootTimeoutMs, () => this.fail(`Postgres did not start within ${this.bootTimeoutMs / 1000} s`));
  }

  private receive(message: FromWorker): void {
    switch (message.kind) {
      case 'ready':
        this.ready = true;
        this.disarm();
        this.emit({ kind: 'ready', bootMs: message.bootMs, database: message.database });
        this.pump();
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
        if (this.inFlight?.id === message.id) this.arm(this.watchdogMs, () => this.bark());
        return;
      case 'result':
      case 'error': {
        const pending = this.inFlight;
        if (!pending || pending.id !== message.id) return;
        this.inFlight = null;
        this.disarm();
        if (message.kind === 'result') pending.resolve(message.result);
        else pending.reject(new EngineError(message.message));
        this.pump();
        return;
      }
    }
  }

  private pump(): void {
    if (!this.ready || this.inFlight || !this.worker) return;
    const next = this.queue.shift();
    if (!next) return;
    this.inFlight = next;
    this.arm(this.watchdogMs, () => this.bark());
    const message: ToWorker = { id: next.id, request: next.request };
    this.worker.postMessage(message);
  }

  /** The request in flight took too long: end the worker and start another. */
  private bark(): void {
    const hung = this.inFlight;
    this.inFlight = null;
    this.stop(null);
    if (hung) hung.reject(new WatchdogError(hung.request));
    for (const waiting of this.queue.splice(0)) waiting.reject(new WatchdogError(waiting.request));
    this.start(true);
  }

  private fail(message: string): void {
    this.stop(new EngineError(message));
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
      for (const waiting of this.queue.splice(0)) waiting.reject(error);
    }
  }

  private arm(ms: number, then: () => void): void {
    this.disarm();
    this.timer = setTimeout(then, ms);
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private emit(event: EngineEvent): void {
    this.last = event;
    for (const listener of this.listeners) listener(event);
  }
}
