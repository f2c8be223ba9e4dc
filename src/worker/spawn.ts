/** The one place the engine's worker is created; Vite bundles the worker from this exact expression. */
import { WorkerEngine } from './client';

export function startWorkerEngine(): WorkerEngine {
  return new WorkerEngine({
    createWorker: () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lease-lab-engine' }),
  });
}
