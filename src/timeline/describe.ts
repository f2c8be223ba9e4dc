/**
 * Words for the timeline: the short label under each mark, the verdict and anomaly names, and the
 * text of a step's tooltip. Pure functions of a trace step.
 */
import { clockLabel, durationLabel } from '../sim/clock';
import { nameOf, rescueFailedRuns } from '../sim/simulated-worker';
import type { AnomalyKind, TraceStep, Value, Verdict } from '../sim/types';
import { BUILT_IN_STRATEGIES } from '../strategies';
import { isNoHeartbeatRead } from '../strategies/queue';

export const VERDICT_NAMES: Record<Verdict, string> = {
  ok: 'ok',
  empty: '0 rows',
  rejected: 'rejected',
  error: 'error',
  blocked: 'waits for a lock',
  event: 'event',
};

export const ANOMALY_NAMES: Record<AnomalyKind, string> = {
  'double-claim': 'double claim',
  'duplicate-execution': 'duplicate execution',
  'split-ownership': 'split ownership',
  'stale-write-rejected': 'stale write rejected',
  'finalized-twice': 'finalized twice',
  'lost-cancel': 'lost cancel',
  'stuck-while-heartbeating': 'stuck',
  'stranded-run': 'stranded run',
  'tenant-over-cap': 'tenant over cap',
};

const ACTION_LABELS: Record<string, string> = {
  select: 'SELECT',
  ...Object.fromEntries(BUILT_IN_STRATEGIES.flatMap((d) => (d.claim.shape === 'select-then-update' ? [[d.claim.action, d.claim.markWord]] : []))),
  claim: 'claim',
  commit: 'commit',
  heartbeat: 'hb',
  work: 'work',
  complete: 'done',
  'cancel-ack': 'ack',
  // A recovery lane's read, its write by id, and the fixed version's look in its process's memory.
  'recover-read': 'recover?',
  recover: 'recover',
  'skip-active': 'skip',
  pause: 'pause',
  resume: 'resume',
  crash: 'crash',
  restart: 'restart',
  'rescue-fetch': 'stuck?',
  'rescue-idle': 'no rescuer',
  'rescue-stalled': 'stalled',
};

/**
 * The word under a mark: short enough to sit under a 40 px slot. A clock move says how far the clock really
 * moved since `before` (the step before it): one "+40" can be cut in two by a fault due on the way.
 */
export function markLabel(step: TraceStep, before?: TraceStep): string {
  if (step.action === 'advance') return `+${durationLabel(step.clockSeconds - (before?.clockSeconds ?? 0))}`;
  if (step.action === 'cancel-request') return step.runId === null ? 'cancel' : `cancel ${step.runId}`;
  if (step.action === 'kill') return step.runId === null ? 'kill' : `kill ${step.runId}`;
  // A queue without a heartbeat only reads its run where the lab's worker would heartbeat.
  if (step.action === 'heartbeat' && isNoHeartbeatRead(step.sqlId)) return 'read';
  if (step.action === 'rescue') {
    // Solid Queue's pruner fails the run it takes back; the other rescuers put it back to pending.
    return step.runId === null ? 'rescue' : `${rescueFailedRuns(step.outcome) ? 'fail' : 'rescue'} ${step.runId}`;
  }
  return ACTION_LABELS[step.action] ?? step.action;
}

/**
 * What made a write match 0 rows, in a word or two: the generation fence, or the condition the write's own
 * WHERE checks (the row as it was before the step): its status, or for a heartbeat its lease owner.
 */
function rejectedBy(step: TraceStep, before: TraceStep | undefined): string {
  if (step.staleWrite !== null) return 'fenced';
  const row = before?.runs.find((run) => run.run_id === step.runId);
  if (!row) return 'rejected';
  if (step.action === 'heartbeat' && row.lease_owner !== nameOf(step.workers.find((w) => w.id === step.actor) ?? { id: step.actor })) return 'owner check';
  if (row.status !== 'running') return 'status check';
  return 'guard';
}

/** A second, smaller line: what the verdict adds that the shape only hints at. `before`: the step before it. */
export function markSublabel(step: TraceStep, before?: TraceStep): string | null {
  switch (step.verdict) {
    case 'empty':
      return '0 rows';
    case 'rejected':
      return rejectedBy(step, before);
    case 'error':
      return step.outcome?.status === 'error' ? step.outcome.code : 'error';
    case 'blocked':
      return 'waits';
    case 'event': {
      // A life is what the lane cannot show by itself: the name is the same before and after.
      if (step.action !== 'restart') return null;
      const life = step.workers.find((w) => w.id === step.actor)?.life;
      return life === undefined ? null : `life ${life}`;
    }
    case 'ok':
      if (step.resumed) return 'resumed';
      if (step.action === 'select' && step.runId !== null) return `run ${step.runId}`;
      return null;
    default:
      return null;
  }
}

/** "#5 · 15:00:00 · A · work · ok": one line that names a step. */
export function stepTitle(step: TraceStep): string {
  const who = step.actor === 'clock' || step.actor === 'operator' || step.actor === 'rescuer' ? step.actor : `worker ${step.actor}`;
  const verdict = step.verdict === 'event' ? '' : ` · ${VERDICT_NAMES[step.verdict]}${step.resumed ? ' (resumed)' : ''}`;
  const action = step.action === 'heartbeat' && isNoHeartbeatRead(step.sqlId) ? 'read (this queue has no heartbeat)' : step.action;
  return `#${step.index + 1} · ${clockLabel(step.clockSeconds)} · ${who} · ${action}${verdict}`;
}

/** The first `lines` lines of the step's SQL, with an ellipsis line when there are more. */
export function sqlPreview(sql: string | null, lines = 10): string | null {
  if (sql === null) return null;
  const all = sql.trim().split('\n');
  return all.length <= lines ? all.join('\n') : [...all.slice(0, lines), '…'].join('\n');
}

function valueText(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return `'${value}'`;
  return String(value);
}

/** "$1 = 123, $2 = 'A'". */
export function paramsText(params: readonly Value[]): string | null {
  if (params.length === 0) return null;
  return params.map((value, i) => `$${i + 1} = ${valueText(value)}`).join(', ');
}

/** What the database answered, in one line. */
export function resultText(step: TraceStep): string | null {
  const outcome = step.outcome;
  if (!outcome) return null;
  if (outcome.status === 'error') return `${outcome.code}: ${outcome.message}`;
  if (outcome.status === 'blocked') return `blocked: waits for ${outcome.holders.join(' and ') || 'another transaction'}`;
  if (outcome.rowCount === 0) return '0 rows';
  const first = outcome.rows[0];
  const shown = first
    ? Object.entries(first)
        .slice(0, 4)
        .map(([key, value]) => `${key}=${value === null ? 'NULL' : String(value)}`)
        .join(', ')
    : '';
  const count = `${outcome.rowCount} row${outcome.rowCount === 1 ? '' : 's'}`;
  return shown ? `${count}: ${shown}${outcome.rows.length > 1 ? ', …' : ''}` : count;
}
