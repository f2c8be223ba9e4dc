/**
 * What a worker card says beyond the worker's own counters: what the worker believes about its run beside
 * what the committed row says. A pure read-out of one step's state; the statement it runs next is its
 * program's pointer (worker-program.ts).
 */
import { clockLabel, secondsOf } from '../sim/clock';
import { believesItOwns } from '../sim/simulated-worker';
import type { RunRow, WorkerState } from '../sim/types';

interface BeliefLine {
  field: 'owner' | 'generation' | 'lease';
  label: string;
  /** What the worker holds to be true. */
  believes: string;
  /** What the committed row of its run says. */
  row: string;
  agrees: boolean;
}

export interface Belief {
  runId: number;
  lines: BeliefLine[];
  /** Why they may disagree without anything being wrong yet, or null. */
  note: string | null;
}

/**
 * Owner, generation and lease expiry as the worker believes them and as the row says, while it believes
 * it owns a run (null otherwise: a worker that has only read a run believes nothing about its lease).
 */
export function beliefOf(worker: WorkerState, row: RunRow | undefined): Belief | null {
  if (!believesItOwns(worker) || worker.runId === null) return null;
  const time = (seconds: number | null) => (seconds === null ? '—' : clockLabel(seconds));
  const rowExpiry = secondsOf(row?.lease_expires_at ?? null);
  const line = (field: BeliefLine['field'], label: string, believes: string, rowSays: string): BeliefLine => ({
    field,
    label,
    believes,
    row: rowSays,
    agrees: believes === rowSays,
  });
  return {
    runId: worker.runId,
    lines: [
      line('owner', 'Owner', worker.id, row?.lease_owner ?? '—'),
      line('generation', 'Generation', worker.generation === null ? '—' : String(worker.generation), row ? String(row.lease_generation) : '—'),
      line('lease', 'Lease until', time(worker.leaseExpiresAtSeconds), time(rowExpiry)),
    ],
    note:
      worker.phase === 'in-transaction'
        ? 'Its claim is not committed yet: the row shows the last committed version.'
        : worker.phase === 'blocked'
          ? 'Its write waits for a row lock: the row shows the last committed version.'
          : null,
  };
}
