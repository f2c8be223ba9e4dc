/**
 * The lab in the same thread, for Node tests and tools: the same request table as the Web Worker
 * (requests.ts), without the Web Worker (and without a watchdog, since nothing here can be terminated).
 */
import type { BackpressureDatabase, LabDatabase } from '../db/port';
import { BackpressureHost } from './backpressure-host';
import { type LabClient, type LabClientEvent, LabHostError } from './client';
import { LabHost } from './host';
import { LabQueue, type Send } from './lab-queue';
import type { LabRequest, LabResultOf } from './protocol';
import { errorAnswerOf, type HostParts, handleRequest } from './requests';

export interface InProcessLabClientOptions {
  /** The backpressure lab's database (PGliteBackpressure on a PGlite); without it, backpressure requests fail. */
  openBackpressure?: () => Promise<BackpressureDatabase>;
}

export class InProcessLabClient implements LabClient {
  private parts: Promise<HostParts>;
  private listeners = new Set<(event: LabClientEvent) => void>();
  private readonly lab = new LabQueue(async (request) => {
    if (request.type === 'runaway') throw new Error('a local engine cannot run away');
    const parts = await this.parts;
    try {
      return (await handleRequest(parts, request)) as LabResultOf<typeof request>;
    } catch (error) {
      // As the Web Worker answers it: a refusal of the learner's SQL, or PostgreSQL's error, crosses typed, not as words to parse.
      const { message, refused, sqlState } = errorAnswerOf(error);
      if (refused !== undefined || sqlState !== undefined) throw new LabHostError(message, refused ?? null, sqlState ?? null);
      throw error;
    }
  });

  constructor(
    private readonly open: () => Promise<LabDatabase>,
    private readonly options: InProcessLabClientOptions = {},
  ) {
    this.parts = this.boot();
  }

  request<R extends LabRequest>(request: R): Promise<LabResultOf<R>> {
    return this.lab.request(request);
  }

  act<T>(action: (send: Send) => Promise<T>): Promise<T> {
    return this.lab.act(action);
  }

  subscribe(listener: (event: LabClientEvent) => void): () => void {
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

  private async boot(): Promise<HostParts> {
    const db = await this.open();
    const openBackpressure =
      this.options.openBackpressure ??
      (() => Promise.reject(new Error(`the backpressure lab needs a backpressure database, which this engine on ${db.kind} was not given`)));
    return {
      host: new LabHost(db),
      backpressure: new BackpressureHost(openBackpressure),
      labOnPGlite: db.kind === 'pglite',
      wholeBundle: () => Promise.resolve(),
      progress: () => undefined,
    };
  }
}
