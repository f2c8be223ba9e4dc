/**
 * What a backpressure worker does each second: claim a run when it has none, start the run's next model
 * call, and write the call's answer when it is due. One statement (or one short transaction) per turn.
 */
import type { BackpressureAction, BackpressureWorker } from './types';

export function workerIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `w${i + 1}`);
}

/** The worker's move this second, or null while its model call is still running. */
export function nextBackpressureAction(worker: BackpressureWorker, second: number): BackpressureAction | null {
  if (worker.runId === null) return 'claim';
  if (worker.callDueAt === null) return 'call-start';
  return second >= worker.callDueAt ? 'call-finish' : null;
}

/**
 * The order workers move in this second: rotated by one each second, so no worker is always first to
 * the claim lock (deterministic, like everything else).
 */
export function turnOrder(workers: readonly BackpressureWorker[], second: number): BackpressureWorker[] {
  const shift = workers.length === 0 ? 0 : second % workers.length;
  return [...workers.slice(shift), ...workers.slice(0, shift)];
}
