/**
 * The statements every built-in strategy shares: the plain read the two-step claims begin with, the
 * owner's writes (fenced and not), the commit of an open claim, and the operator's cancel request. Each
 * write waits on the one row its $1 names, so after a wait it re-checks that row (see AfterWait).
 */
import type { SqlId } from '../sql/registry';
import { mayWait, neverWaits, sharedText } from './statement';
import { type FencedPair, type LabStatement, type StatementRole, roleParams } from './types';

const RECHECK_ROW = { kind: 'recheck-row' } as const;

function write(role: StatementRole, fenced: boolean, id: SqlId, probe: SqlId): LabStatement {
  return mayWait(sharedText(id), roleParams(role, fenced), sharedText(probe), RECHECK_ROW);
}

function pair(role: StatementRole, fenced: [SqlId, SqlId], unfenced: [SqlId, SqlId]): FencedPair {
  return { fenced: write(role, true, ...fenced), unfenced: write(role, false, ...unfenced) };
}

/** SELECT the oldest pending run, locking nothing. */
export const PENDING_SELECT: LabStatement = neverWaits(sharedText('naive-select'), []);

const SHARED_HEARTBEAT = pair('heartbeat', ['heartbeat-fenced', 'probe-heartbeat-fenced'], ['heartbeat-unfenced', 'probe-heartbeat-unfenced']);
const SHARED_WORK = pair('work', ['work-fenced', 'probe-work-fenced'], ['work-unfenced', 'probe-work-unfenced']);
const SHARED_COMPLETE = pair('complete', ['complete-fenced', 'probe-complete-fenced'], ['complete-unfenced', 'probe-complete-unfenced']);
const SHARED_CANCEL_ACK = pair('cancel-ack', ['cancel-ack-fenced', 'probe-cancel-ack-fenced'], ['cancel-ack-unfenced', 'probe-cancel-ack-unfenced']);

/** The owner's writes as most strategies have them. */
export const SHARED_WRITES = { heartbeat: SHARED_HEARTBEAT, work: SHARED_WORK, complete: SHARED_COMPLETE, cancelAck: SHARED_CANCEL_ACK } as const;

/** COMMIT of a worker's open claim transaction (the engine ends it through the port, not by this text). */
export const COMMIT: LabStatement = neverWaits(sharedText('transaction-commit'), []);

/**
 * The model call of a job held in its claim's transaction (ClaimShape holdForJob): a step of the worker that
 * sends nothing (its text is a comment saying so); the engine runs no statement for it.
 */
export const MODEL_CALL: LabStatement = neverWaits(sharedText('model-call'), []);

/** ROLLBACK of a worker's claim transaction that failed (40001 at REPEATABLE READ / SERIALIZABLE), before it tries again. */
export const ROLLBACK: LabStatement = neverWaits(sharedText('transaction-rollback'), []);

/** The operator's cancel request: a write on the run's row, so it can wait for a worker's open claim. */
export const CANCEL_REQUEST: LabStatement = mayWait(sharedText('cancel-request'), ['run'], sharedText('probe-cancel-request'), RECHECK_ROW);
