/**
 * The page's side of the explorer: starts the explorer's Web Worker when it is first needed, sends it one
 * exploration at a time, passes its progress on, and cancels by terminating it (the next exploration
 * starts a fresh one). The lab's own engine worker is never involved.
 */
import type { Exploration, ExploreProgress } from '../sim/exploration';
import { authoredFor } from '../scenarios/authored';
import type { Settings } from '../sim/types';
import type { ExploreRequest, FromExplorer } from './protocol';

export type RunnerEvent = { kind: 'starting' } | { kind: 'progress'; progress: ExploreProgress };

export interface Explored {
  exploration: Exploration;
  /** Wall time of the exploration itself, in the worker (Postgres's start not included). */
  ms: number;
}

/** What the explorer's store needs: the worker in the browser, an in-process runner in Node tests. */
export interface ExplorerRunner {
  explore(scenarioId: string, settings: Settings, onEvent: (event: RunnerEvent) => void): Promise<Explored>;
  /** Ends the exploration in progress; its promise rejects with CancelledError. */
  cancel(): void;
}

export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('the exploration was cancelled');
  }
}

interface Pending {
  id: number;
  resolve: (explored: Explored) => void;
  reject: (error: Error) => void;
  onEvent: (event: RunnerEvent) => void;
}

export class WebWorkerExplorer implements ExplorerRunner {
  private worker: Worker | null = null;
  private ready = false;
  private nextId = 1;
  private pending: Pending | null = null;

  constructor(private readonly createWorker: () => Worker) {}

  explore(scenarioId: string, settings: Settings, onEvent: (event: RunnerEvent) => void): Promise<Explored> {
    // One at a time: a new exploration replaces one still running.
    if (this.pending) this.cancel();
    const worker = this.worker ?? this.start();
    if (!this.ready) onEvent({ kind: 'starting' });
    return new Promise<Explored>((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, resolve, reject, onEvent };
      const request: ExploreRequest = { id, scenarioId, settings, ...authoredFor(scenarioId) };
      worker.postMessage(request);
    });
  }

  cancel(): void {
    const pending = this.pending;
    this.stop();
    pending?.reject(new CancelledError());
  }

  private start(): Worker {
    const worker = this.createWorker();
    this.worker = worker;
    this.ready = false;
    worker.onmessage = (event: MessageEvent<FromExplorer>) => {
      if (this.worker === worker) this.receive(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      if (this.worker !== worker) return;
      event.preventDefault();
      this.fail(`the explorer's worker failed: ${event.message || 'it could not be loaded'}`);
    };
    return worker;
  }

  private receive(message: FromExplorer): void {
    const pending = this.pending;
    switch (message.kind) {
      case 'ready':
        this.ready = true;
        return;
      case 'boot-failed':
        this.fail(`Postgres could not start for the explorer: ${message.message}`);
        return;
      case 'progress':
        if (pending?.id === message.id) pending.onEvent({ kind: 'progress', progress: message.progress });
        return;
      case 'result':
      case 'error':
        if (!pending || pending.id !== message.id) return;
        this.pending = null;
        if (message.kind === 'result') pending.resolve({ exploration: message.exploration, ms: message.ms });
        else pending.reject(new Error(message.message));
        return;
    }
  }

  private fail(message: string): void {
    const pending = this.pending;
    this.stop();
    pending?.reject(new Error(message));
  }

  private stop(): void {
    this.worker?.terminate();
    this.worker = null;
    this.ready = false;
    this.pending = null;
  }
}
