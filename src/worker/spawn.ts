/** The one place the engine's worker is created; Vite bundles the worker from this exact expression. */
import { WorkerEngine } from './client';

let started: WorkerEngine | null = null;

/**
 * The page's engine, started on the first call: main.tsx's call and the backpressure view's get the same
 * one, so a tab has one worker and one Postgres whichever asks first (a link to the backpressure view
 * asks while the page's modules load). A disposed engine (a hot reload) is replaced.
 */
export function startWorkerEngine(): WorkerEngine {
  if (started && !started.disposed) return started;
  started = new WorkerEngine({
    createWorker: () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lease-lab-engine' }),
  });
  return started;
}
