/**
 * Builders shared by the production queues' strategies (src/strategies/<queue>/). Each queue's unfenced
 * writes carry that queue's own guard; its fenced writes are the lab's generation fence (shared.ts), so
 * the fencing switch reads "the queue's guard" against "the lab's fence" unless a definition says otherwise.
 */
import { SHARED_WRITES } from './shared';
import { mayWait, neverWaits, sharedText, strategyText } from './statement';
import { type LabStatement, type ParamName, roleParams, type StatementText } from './types';

const RECHECK_ROW = { kind: 'recheck-row' } as const;

/** A queue's one-statement claim (every queue here claims with FOR UPDATE SKIP LOCKED, which never waits). */
export function queueClaim(folder: string, id: string, raw: string): LabStatement {
  return neverWaits(strategyText(folder, id, raw), ['worker', 'leaseSeconds']);
}

/** A write on the one row its $1 names, probed with `probe`; after a wait it re-checks that row. */
export function queueWrite(text: StatementText, params: readonly ParamName[], probe: StatementText): LabStatement {
  return mayWait(text, params, probe, RECHECK_ROW);
}

const NO_HEARTBEAT = '-no-heartbeat';

/** The heartbeat of a queue that has none: a plain read of the run (fenced: only while the generation is the claim's). */
export function noHeartbeat(folder: string, prefix: string, raw: string, rawFenced: string) {
  return {
    unfenced: neverWaits(strategyText(folder, `${prefix}${NO_HEARTBEAT}`, raw), ['run']),
    fenced: neverWaits(strategyText(folder, `${prefix}${NO_HEARTBEAT}-fenced`, rawFenced), ['run', 'generation']),
  };
}

/** The statement is noHeartbeat's plain read: a "heartbeat" step of a queue that has none (nothing is renewed). */
export function isNoHeartbeatRead(statementId: string | null): boolean {
  return statementId !== null && (statementId.endsWith(NO_HEARTBEAT) || statementId.endsWith(`${NO_HEARTBEAT}-fenced`));
}

/**
 * A rescuer's one UPDATE of every running run past its lease, without parameters (Oban's Lifeline, pg-boss's
 * expiry, Solid Queue's pruner). It waits only on a stuck run whose row another session holds, which no lab
 * worker does between its steps; where it would, PGlite says so rather than guess what the UPDATE does once
 * the lock is free.
 */
export function queueSweep(folder: string, id: string, raw: string, what: string): LabStatement {
  return mayWait(strategyText(folder, id, raw), [], sharedText('probe-expired-running'), {
    kind: 'server-only',
    why: `${what} would wait for a row lock; the lab does not replay on PGlite its re-check of the newest row versions once the lock is free`,
  });
}

/**
 * A queue's writes on the run its worker owns (a step of work, the completion, the cancel's acknowledgement):
 * unfenced, its own `<prefix>-work`, `<prefix>-complete` and `<prefix>-cancel-ack` by run id, probed with
 * `probe`; fenced, the lab's generation fence (shared.ts).
 */
export function ownerWritesById(folder: string, prefix: string, raw: { work: string; complete: string; cancelAck: string }, probe: StatementText) {
  const write = (role: 'work' | 'complete' | 'cancel-ack', text: string) =>
    queueWrite(strategyText(folder, `${prefix}-${role}`, text), roleParams(role, false), probe);
  return {
    work: { fenced: SHARED_WRITES.work.fenced, unfenced: write('work', raw.work) },
    complete: { fenced: SHARED_WRITES.complete.fenced, unfenced: write('complete', raw.complete) },
    cancelAck: { fenced: SHARED_WRITES.cancelAck.fenced, unfenced: write('cancel-ack', raw.cancelAck) },
  };
}
