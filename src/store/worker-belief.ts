/**
 * What a worker card says beyond the worker's own counters: what the worker believes about its run beside
 * what the committed row says. A pure read-out of one step's state; the statement it runs next is its
 * program's pointer (worker-program.ts).
 */
import { clockLabel, secondsOf } from '../sim/clock';
import { listWorkers } from '../sim/anomalies';
import { believesItOwns, nameOf } from '../sim/simulated-worker';
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
  /** Whom else the row's owner names, when it names a name other workers share with this one, or null. */
  sharedName: string | null;
}

/**
 * Owner, generation and lease expiry as the worker believes them and as the row says, while it believes
 * it owns a run (null otherwise: a worker that has only read a run believes nothing about its lease).
 * The owner it believes is the name it claims under; `workers`, every worker at this step, say who else
 * goes by that name, so the card can say the row cannot tell them apart.
 */
export function beliefOf(worker: WorkerState, row: RunRow | undefined, workers: readonly WorkerState[] = []): Belief | null {
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
      line('owner', 'Owner', nameOf(worker), row?.lease_owner ?? '—'),
      line('generation', 'Generation', worker.generation === null ? '—' : String(worker.generation), row ? String(row.lease_generation) : '—'),
      line('lease', 'Lease until', time(worker.leaseExpiresAtSeconds), time(rowExpiry)),
    ],
    note: phaseNote(worker),
    sharedName: sharedNameNote(worker, row, workers),
  };
}

function phaseNote(worker: WorkerState): string | null {
  if (worker.phase === 'in-transaction') return 'Its claim is not committed yet: the row shows the last committed version.';
  if (worker.phase === 'blocked')
    return worker.blockedOnAdvisory
      ? 'It waits for an advisory lock: the row shows the last committed version.'
      : 'Its write waits for a row lock: the row shows the last committed version.';
  return null;
}

/** When the row names a name other workers share with this one: the owner line agrees for each of them. */
function sharedNameNote(worker: WorkerState, row: RunRow | undefined, workers: readonly WorkerState[]): string | null {
  const sharers = workers.filter((other) => other.id !== worker.id && nameOf(other) === nameOf(worker)).map((other) => other.id);
  if (sharers.length === 0 || row?.lease_owner !== nameOf(worker)) return null;
  const all = listWorkers([worker.id, ...sharers].sort());
  return `The row names '${nameOf(worker)}', a name ${all} share: each of them reads it as its own, and the row cannot say which one claimed it.`;
}
