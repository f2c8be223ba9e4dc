/**
 * The one queue in front of the lab: everything the page asks of the engine waits here for its turn, and
 * only the entry whose turn it is talks to the engine. An entry is a single request (an explorer trace, a
 * backpressure stretch) or a learner action (a step, a reset, opening a link): an action holds its turn
 * across all the requests it makes and whatever it does between them, so a burst of key presses applies
 * in order, each reading the store as it is when its turn comes, and nothing else lands in the middle.
 *
 * Both clients put their engine behind it: the Web Worker (client.ts), which therefore has at most one
 * request in flight, and the in-process host (local-engine.ts).
 */
import type { LabRequest, LabResultOf } from './protocol';

/** Sends one request to the engine, now. Only the entry whose turn it is holds one. */
export type Send = <R extends LabRequest>(request: R) => Promise<LabResultOf<R>>;

interface Entry {
  /** The request, for a single request; null for an action. */
  request: LabRequest | null;
  run: (send: Send) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** The engine was replaced while this action's turn was next (see engineReplaced): its next request fails with this error. */
  replaced?: (request: LabRequest) => Error;
}

export class LabQueue {
  private waiting: Entry[] = [];
  /** The entry whose turn it is. */
  private current: Entry | null = null;

  constructor(private readonly send: Send) {}

  /** One request, in its turn. */
  request<R extends LabRequest>(request: R): Promise<LabResultOf<R>> {
    return this.push(request, (send) => send(request)) as Promise<LabResultOf<R>>;
  }

  /** A learner action, in its turn; `send` is its own way to the engine while it holds the turn. */
  act<T>(action: (send: Send) => Promise<T>): Promise<T> {
    return this.push(null, action as (send: Send) => Promise<unknown>) as Promise<T>;
  }

  /** Entries waiting for their turn (not the one whose turn it is). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * The engine was replaced (it hung, failed or was restarted): the single requests waiting fail with
   * `errorFor`, as they were asked of the engine that is gone. If a single request held the turn, the
   * first waiting action may have been the learner's action in progress behind it: its first request
   * fails the same way, so it recovers (puts the learner's place back on the new engine) before the
   * actions behind it run. An action that held the turn itself recovers from its own failed request.
   */
  engineReplaced(errorFor: (request: LabRequest) => Error): void {
    const keep: Entry[] = [];
    for (const entry of this.waiting) {
      if (entry.request) entry.reject(errorFor(entry.request));
      else keep.push(entry);
    }
    if (this.current?.request && keep[0]) keep[0].replaced ??= errorFor;
    this.waiting = keep;
  }

  private push(request: LabRequest | null, run: (send: Send) => Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, run, resolve, reject });
      void this.next();
    });
  }

  private async next(): Promise<void> {
    if (this.current) return;
    const entry = this.waiting.shift();
    if (!entry) return;
    this.current = entry;
    try {
      entry.resolve(await entry.run(this.sendFor(entry)));
    } catch (error) {
      entry.reject(error);
    } finally {
      this.current = null;
      void this.next();
    }
  }

  private sendFor(entry: Entry): Send {
    return (request) => {
      const replaced = entry.replaced;
      if (replaced) {
        entry.replaced = undefined;
        return Promise.reject(replaced(request));
      }
      return this.send(request);
    };
  }
}
