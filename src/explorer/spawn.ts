/** The one place the explorer's worker is created; Vite bundles the worker from this exact expression. */
import { WorkerExplorer } from './client';

export function startWorkerExplorer(): WorkerExplorer {
  return new WorkerExplorer(() => new Worker(new URL('./explorer.worker.ts', import.meta.url), { type: 'module', name: 'lease-lab-explorer' }));
}
