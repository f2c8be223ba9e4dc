/**
 * The two-worker scene every claim/complete variant of the truth corpus (tests/ground-truth/claim-corpus)
 * is played in, on a real PostgreSQL and by the predictor (./predictor.ts): A runs the statement in an open
 * transaction, then B runs it, then A commits (or rolls back).
 *
 * Claims: run 121 is running under a worker that is gone (its lease expired a minute ago, generation 1);
 * 123 and 124 are pending. Rows are inserted 124, 123, 121, so a scan without ORDER BY meets them in that
 * order while the oldest is 121. Completions: A is a stale worker (generation 1) of run 123, which B has
 * since reclaimed (generation 2); run 124 is another worker's, at generation 1.
 */
import type { Role } from './contract';

export interface SeedRun {
  run_id: number;
  status: string;
  lease_owner: string | null;
  /** Seconds after the scene's epoch (00:00 UTC on 2026-01-01), or null. */
  lease_expires_at: number | null;
  lease_generation: number;
  heartbeat_at: number | null;
  created_at: number;
  cancel_requested: boolean;
  progress: number;
  cost_cents: number;
  result: string | null;
}

export interface Scene {
  /** The virtual clock, in seconds after the epoch. */
  now: number;
  /** In insertion (physical) order. */
  runs: SeedRun[];
  params: { a: (string | number)[]; b: (string | number)[] };
}

const SCENE_EPOCH_ISO = '2026-01-01T00:00:00Z';

const run = (fields: Partial<SeedRun> & Pick<SeedRun, 'run_id' | 'created_at'>): SeedRun => ({
  status: 'pending',
  lease_owner: null,
  lease_expires_at: null,
  lease_generation: 0,
  heartbeat_at: null,
  cancel_requested: false,
  progress: 0,
  cost_cents: 0,
  result: null,
  ...fields,
});

const claimScene: Scene = {
  now: 600,
  runs: [
    run({ run_id: 124, created_at: 120 }),
    run({ run_id: 123, created_at: 60 }),
    run({ run_id: 121, created_at: 0, status: 'running', lease_owner: 'Z', lease_expires_at: 540, lease_generation: 1, heartbeat_at: 480 }),
  ],
  params: { a: ['A', 30], b: ['B', 30] },
};

const completeScene: Scene = {
  now: 600,
  runs: [
    run({ run_id: 123, created_at: 60, status: 'running', lease_owner: 'B', lease_expires_at: 630, lease_generation: 2, heartbeat_at: 590 }),
    run({ run_id: 124, created_at: 120, status: 'running', lease_owner: 'C', lease_expires_at: 630, lease_generation: 1, heartbeat_at: 590 }),
  ],
  params: { a: [123, 1, 'answer from A'], b: [123, 2, 'answer from B'] },
};

export function sceneFor(role: Role): Scene {
  if (role === 'claim') return claimScene;
  if (role === 'complete') return completeScene;
  throw new Error(`the corpus scene has no ${role} variant`);
}

export function isoAt(seconds: number): string {
  return new Date(Date.parse(SCENE_EPOCH_ISO) + seconds * 1000).toISOString();
}

/**
 * How a statement's returned rows are written in the corpus: a claim's as run@generation, a completion's
 * as status(result); sorted (RETURNING has no order), "none" for no row.
 */
export function renderRows(role: Role, rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return 'none';
  const one = (row: Record<string, unknown>) => (role === 'claim' ? `${row.run_id}@${row.lease_generation}` : `${row.status}(${row.result})`);
  return rows.map(one).sort().join(',');
}
