/**
 * The engine in the same thread, for Node tests and tools: the same host and protocol as the Web
 * Worker, without the worker (and without a watchdog, since nothing here can be terminated).
 */
import type { LabDatabase } from '../db/port';
import type { Engine, EngineEvent } from './client';
import { EngineHost } from './host';
import type { EngineRequest, EngineResultOf } from './protocol';

export class LocalEngine implements Engine {
  private host: Promise<EngineHost>;
  private listeners = new Set<(event: EngineEvent) => void>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly open: () => Promise<LabDatabase>) {
    this.host = this.boot();
  }

  request<R extends EngineRequest>(request: R): Promise<EngineResultOf<R>> {
    const run = this.chain.then(async () => {
      const host = await this.host;
      if (request.type === 'load') return host.load(request);
      if (request.type === 'apply') return host.apply(request);
      if (request.type === 'run-trace') return host.runTrace(request);
      if (request.type === 'console') return host.console(request);
      throw new Error('a local engine cannot run away');
    });
    this.chain = run.catch(() => undefined);
    return run as Promise<EngineResultOf<R>>;
  }

  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    void this.host.then(
      () => listener({ kind: 'ready', bootMs: 0 }),
      (error: unknown) => listener({ kind: 'failed', message: String(error) }),
    );
    return () => this.listeners.delete(listener);
  }

  restart(): void {
    this.host = this.boot();
  }

  private async boot(): Promise<EngineHost> {
    return new EngineHost(await this.open());
  }
}
