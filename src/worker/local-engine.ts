/**
 * The engine in the same thread, for Node tests and tools: the same request table as the Web Worker
 * (requests.ts), without the worker (and without a watchdog, since nothing here can be terminated).
 */
import type { BackpressureDatabase, LabDatabase } from '../db/port';
import { BackpressureHost } from './backpressure-host';
import type { Engine, EngineEvent } from './client';
import { EngineHost } from './host';
import type { EngineRequest, EngineResultOf } from './protocol';
import { type EngineParts, handleRequest } from './requests';

export interface LocalEngineOptions {
  /** The backpressure lab's database (PGliteBackpressure on a PGlite); without it, backpressure requests fail. */
  openBackpressure?: () => Promise<BackpressureDatabase>;
}

export class LocalEngine implements Engine {
  private parts: Promise<EngineParts>;
  private listeners = new Set<(event: EngineEvent) => void>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly open: () => Promise<LabDatabase>,
    private readonly options: LocalEngineOptions = {},
  ) {
    this.parts = this.boot();
  }

  request<R extends EngineRequest>(request: R): Promise<EngineResultOf<R>> {
    const run = this.chain.then(async () => {
      if (request.type === 'runaway') throw new Error('a local engine cannot run away');
      return handleRequest(await this.parts, request);
    });
    this.chain = run.catch(() => undefined);
    return run as Promise<EngineResultOf<R>>;
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    void this.parts.then(
      () => listener({ kind: 'ready', bootMs: 0 }),
      (error: unknown) => listener({ kind: 'failed', message: String(error) }),
    );
    return () => this.listeners.delete(listener);
  }

  restart(): void {
    this.parts = this.boot();
  }

  private async boot(): Promise<EngineParts> {
    const db = await this.open();
    const openBackpressure =
      this.options.openBackpressure ??
      (() => Promise.reject(new Error(`the backpressure lab needs a backpressure database, which this engine on ${db.kind} was not given`)));
    return {
      host: new EngineHost(db),
      backpressure: new BackpressureHost(openBackpressure),
      labOnPGlite: db.kind === 'pglite',
      wholeBundle: () => Promise.resolve(),
    };
  }
}
