/**
 * The messages between the page and the explorer's own Web Worker. The explorer has a Postgres of its
 * own, so exploring never queues behind (or changes) the learner's lab, and cancelling is simply ending
 * that worker. Everything is plain data (structured clone).
 */
import type { Exploration, ExploreProgress } from '../sim/exploration';
import type { Scenario, Settings } from '../sim/types';

export interface ExploreRequest {
  id: number;
  scenarioId: string;
  settings: Settings;
  /** An authored scenario (scenarios/authored.ts), which the explorer's worker has not met; checked there again. */
  authored?: Scenario;
}

export type FromExplorer =
  /** Postgres has started in the worker (it starts when the worker does). */
  | { kind: 'ready'; bootMs: number }
  | { kind: 'boot-failed'; message: string }
  | { kind: 'progress'; id: number; progress: ExploreProgress }
  | { kind: 'result'; id: number; exploration: Exploration; ms: number }
  | { kind: 'error'; id: number; message: string };
