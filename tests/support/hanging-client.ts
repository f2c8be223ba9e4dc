/**
 * The real engine behind a LabClient, except for the requests a test says hang: those fail as the
 * watchdog makes them fail (a WatchdogError), as if the Web Worker had stopped answering and been replaced.
 */
import { type LabClient, type LabClientEvent, WatchdogError } from '../../src/webworker/client';
import type { Send } from '../../src/webworker/lab-queue';
import type { LabRequest, LabResultOf } from '../../src/webworker/protocol';

/** Which requests hang: the limit the watchdog waited and the worker it replaces the old one with, or null to answer. */
export type Hangs = (request: LabRequest, count: number) => { limitMs: number; worker: 'new' | 'spare' } | null;

export class HangingLabClient implements LabClient {
  /** Every request's type, in the order sent. */
  readonly sent: LabRequest['type'][] = [];

  constructor(
    private readonly inner: LabClient,
    private readonly hangs: Hangs,
  ) {}

  request<R extends LabRequest>(request: R): Promise<LabResultOf<R>> {
    this.sent.push(request.type);
    const hang = this.hangs(request, this.sent.length);
    if (hang) return Promise.reject(new WatchdogError(request, hang.limitMs, hang.worker));
    return this.inner.request(request);
  }

  /** The action's requests pass through request() too, so they hang as the test says. */
  act<T>(action: (send: Send) => Promise<T>): Promise<T> {
    return action((request) => this.request(request));
  }

  subscribe(listener: (event: LabClientEvent) => void) {
    return this.inner.subscribe(listener);
  }

  restart() {}
}
