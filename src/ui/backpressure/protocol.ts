/** Messages between the backpressure store and its engine (client.ts, on the page's engine worker): plain data. */
import type { BackpressureConfig, ClaimPolicy } from '../../sim/backpressure/types';
import type { BackpressureChunk } from '../../worker/protocol';

export interface SimulateRequest {
  id: number;
  config: BackpressureConfig;
  policies: ClaimPolicy[];
}

/** New seconds of one lane since the last chunk; `finished` and `steps` describe the lane so far. */
export interface LaneChunk extends BackpressureChunk {
  kind: 'chunk';
  id: number;
  policy: ClaimPolicy;
}

export type FromBackpressureWorker =
  | { kind: 'ready'; bootMs: number }
  | { kind: 'boot-failed'; message: string }
  | LaneChunk
  | { kind: 'error'; id: number; message: string };
