/** The backpressure worker, started on first use; Vite bundles it from this exact expression. */
import type { BackpressureEngine } from '../../store/backpressure-store';
import type { FromBackpressureWorker, SimulateRequest } from './protocol';

export function startBackpressureWorker(): BackpressureEngine {
  const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'lease-lab-backpressure' });
  const listeners = new Set<(message: FromBackpressureWorker) => void>();
  worker.onmessage = (event: MessageEvent<FromBackpressureWorker>) => {
    for (const listener of listeners) listener(event.data);
  };
  worker.onerror = (event) => {
    for (const listener of listeners) listener({ kind: 'boot-failed', message: event.message || 'the worker failed to load' });
  };
  return {
    send: (request: SimulateRequest) => worker.postMessage(request),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
