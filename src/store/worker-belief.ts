/**
 * What a worker card says beyond the worker's own counters: what the worker believes about its run beside
 * what the committed row says, and the statement it will run next. Pure read-outs of one step's state,
 * with the engine's own rules (nextAction, planAction), so the card never guesses what the engine will do.
 */
import { clockLabel, secondsOf } from '../sim/clock';
import { believesItOwns, nextAction, planAction } from '../sim/simulated-worker';
import type { RunRow, Scenario, Settings, WorkerState } from '../sim/types';

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

export type NextStatement =
  | {
      kind: 'statement';
      /** The file the statement is read from (its name only), or the statement's id for one typed in the page. */
      file: string;
      /** Its first line that is not a comment. */
      firstLine: string;
      /** Set when it will run only once the worker is resumed. */
      paused: boolean;
    }
  | { kind: 'state'; words: string };

const FINISHED_WORDS: Partial<Record<WorkerState['phase'], string>> = {
  done: 'done',
  'no-work': 'done: it found no run to claim',
  'lost-lease': 'stopped: its write matched no row',
  cancelled: 'stopped: it marked its run cancelled',
  'gave-up': 'stopped: it gave up',
};

/**
 * The statement the worker runs at its next step, as the engine would choose it; or why it runs none.
 * `settings` must be those the worker's trace was played with (the store's traceSettings).
 */
export function nextStatementOf(worker: WorkerState, scenario: Scenario, settings: Settings, clockSeconds: number): NextStatement {
  if (worker.phase === 'crashed') return { kind: 'state', words: 'crashed' };
  const finished = FINISHED_WORDS[worker.phase];
  if (finished) return { kind: 'state', words: finished };
  if (worker.phase === 'blocked') {
    return { kind: 'state', words: `waits for the lock${worker.blockedOn.length > 0 ? ` held by ${worker.blockedOn.join(', ')}` : ''}` };
  }
  const { statement } = planAction(nextAction(worker, scenario, settings, clockSeconds), worker, scenario, settings);
  const lines = statement.text.split('\n').map((text) => text.trim());
  return {
    kind: 'statement',
    file: statement.file === null ? statement.id : (statement.file.split('/').at(-1) ?? statement.file),
    firstLine: lines.find((text) => text !== '' && !text.startsWith('--')) ?? lines[0] ?? '',
    paused: worker.paused,
  };
}
