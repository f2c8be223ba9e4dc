/** Messages between the page and the backpressure lab's Web Worker (plain data, structured clone). */
import type { BackpressureConfig, ClaimPolicy, ClaimRecord, TickMetrics } from '../../sim/backpressure/types';

export interface SimulateRequest {
  id: number;
  config: BackpressureConfig;
  policies: ClaimPolicy[];
}

/** New seconds of one lane since the last chunk; `finished` and `steps` describe the lane so far. */
export interface LaneChunk {
  kind: 'chunk';
  id: number;
  policy: ClaimPolicy;
  ticks: TickMetrics[];
  claims: ClaimRecord[];
  totalRuns: number;
  steps: number;
  /** The lane has played to its end (every run finished, or the bound was reached). */
  done: boolean;
  finished: boolean;
}

export type FromBackpressureWorker =
  | { kind: 'ready'; bootMs: number }
  | { kind: 'boot-failed'; message: string }
  | LaneChunk
  | { kind: 'error'; id: number; message: string };
