/** The one place the lab's Web Worker is created; Vite bundles it from this exact expression. */
import { WebWorkerLabClient } from './client';

let started: WebWorkerLabClient | null = null;

/**
 * The page's engine, started on the first call (main.tsx, before the page's modules load; the composition
 * root hands it to the lab and the backpressure view), so a tab has one worker and one Postgres. A
 * disposed engine (a hot reload) is replaced.
 */
export function startWebWorkerLabClient(): WebWorkerLabClient {
  if (started && !started.disposed) return started;
  started = new WebWorkerLabClient({
    createWorker: () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: engineWorkerName() }),
  });
  return started;
}

/**
 * The worker's name carries live mode's launch secret from the page's address (?live=…, as the bridge
 * printed it): the worker opens the bridge's session with it (src/db/bridge-lab.ts).
 */
function engineWorkerName(): string {
  const launch = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('live');
  return launch && /^[A-Za-z0-9_-]{1,100}$/.test(launch) ? `lease-lab-engine live=${launch}` : 'lease-lab-engine';
}
