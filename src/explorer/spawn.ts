/** The one place the explorer's worker is created; Vite bundles the worker from this exact expression. */
import { WebWorkerExplorer } from './client';

export function startWebWorkerExplorer(): WebWorkerExplorer {
  return new WebWorkerExplorer(() => new Worker(new URL('./explorer.worker.ts', import.meta.url), { type: 'module', name: 'lease-lab-explorer' }));
}
