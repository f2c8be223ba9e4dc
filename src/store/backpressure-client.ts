/**
 * The backpressure view's client: the page's own LabClient (the race lab's Web Worker), asked for one stretch
 * of a lane at a time. One worker and one Postgres per tab; the race lab's requests take their turn
 * between two stretches, and its watchdog watches these too.
 */
import { type LabClient, WatchdogError } from '../webworker/client';
import type { BackpressureChunk, BackpressureRequest } from '../webworker/protocol';
import type { BackpressureClient, BackpressureEvent, LanesRequest } from './backpressure-store';

/** Simulated seconds per request: a fraction of a second of work, so the race lab never waits long. */
export const STRETCH_SECONDS = 60;
/** A stretch cut off by the watchdog (its worker was replaced) is asked again this many times. */
const RETRIES = 2;

/** `lab` is asked for at each use: the page's LabClient (the same one every time, unless a hot reload replaced it). */
export function backpressureOnLabClient(lab: () => LabClient): BackpressureClient {
  const listeners = new Set<(message: BackpressureEvent) => void>();
  const emit = (message: BackpressureEvent) => {
    for (const listener of listeners) listener(message);
  };
  let latest = 0;

  async function simulate({ id, config, policies }: LanesRequest): Promise<void> {
    for (const policy of policies) {
      let from = 0;
      let retries = 0;
      for (;;) {
        if (id !== latest) return;
        let stretch: BackpressureChunk;
        try {
          const request: BackpressureRequest = { type: 'backpressure', config, policy, from, seconds: STRETCH_SECONDS };
          stretch = await lab().request(request);
        } catch (error) {
          // The worker was replaced (something else hung): the new one replays the lane up to `from`.
          if (error instanceof WatchdogError && retries++ < RETRIES) continue;
          if (id === latest) emit({ kind: 'error', id, message: error instanceof Error ? error.message : String(error) });
          return;
        }
        if (id !== latest) return;
        const { ticks, claims, totalRuns, steps, done, finished } = stretch;
        emit({ kind: 'chunk', id, policy, ticks, claims, totalRuns, steps, done, finished });
        if (done) break;
        from += ticks.length;
      }
    }
  }

  return {
    send(request) {
      latest = request.id;
      void simulate(request);
    },
    subscribe(listener) {
      listeners.add(listener);
      const unsubscribe = lab().subscribe((event) => {
        if (event.kind === 'ready') listener({ kind: 'ready', bootMs: event.bootMs });
        else if (event.kind === 'failed') listener({ kind: 'boot-failed', message: event.message });
      });
      return () => {
        unsubscribe();
        listeners.delete(listener);
      };
    },
  };
}
