/**
 * Every statement the lab runs that is not a claim strategy's own, by id (the strategies' statements live
 * in src/strategies/<id>/). The text here is the text executed and the text shown: nothing is assembled
 * from pieces, and values always travel as $n parameters.
 */
import advisoryUnlockAll from './advisory-unlock-all.sql?raw';
import arrayTypesPglite from './array-types-pglite.sql?raw';
import backpressureArrive from './backpressure-arrive.sql?raw';
import backpressureCallFinish from './backpressure-call-finish.sql?raw';
import backpressureCallLock from './backpressure-call-lock.sql?raw';
import backpressureCallStart from './backpressure-call-start.sql?raw';
import backpressureClaimLock from './backpressure-claim-lock.sql?raw';
import backpressureMetrics from './backpressure-metrics.sql?raw';
import backpressureSchema from './backpressure-schema.sql?raw';
import backpressureScope from './backpressure-scope.sql?raw';
import backpressureVacuum from './backpressure-vacuum.sql?raw';
import claimFairTenant from './claim-fair-tenant.sql?raw';
import claimFifoTenant from './claim-fifo-tenant.sql?raw';
import backendLockWait from './backend-lock-wait.sql?raw';
import backendPid from './backend-pid.sql?raw';
import cancelAckFenced from './cancel-ack-fenced.sql?raw';
import cancelAckUnfenced from './cancel-ack-unfenced.sql?raw';
import cancelBackend from './cancel-backend.sql?raw';
import cancelRequest from './cancel-request.sql?raw';
import completeFenced from './complete-fenced.sql?raw';
import completeUnfenced from './complete-unfenced.sql?raw';
import heartbeatFenced from './heartbeat-fenced.sql?raw';
import heartbeatUnfenced from './heartbeat-unfenced.sql?raw';
import heldLocksPglite from './held-locks-pglite.sql?raw';
import heldLocksPostgres from './held-locks-postgres.sql?raw';
import liveConsoleBegin from './live-console-begin.sql?raw';
import liveConsoleCountRest from './live-console-count-rest.sql?raw';
import liveConsoleFetch from './live-console-fetch.sql?raw';
import liveConsoleSettings from './live-console-settings.sql?raw';
import liveLockEvidence from './live-lock-evidence.sql?raw';
import liveSchema from './live-schema.sql?raw';
import liveSchemaDrop from './live-schema-drop.sql?raw';
import liveConsoleUnlock from './live-console-unlock.sql?raw';
import liveSchemaState from './live-schema-state.sql?raw';
import liveSessionSetup from './live-session-setup.sql?raw';
import lockWaitersPostgres from './lock-waiters-postgres.sql?raw';
import naiveSelect from './naive-select.sql?raw';
import observerSetup from './observer-setup.sql?raw';
import preparedTransactions from './prepared-transactions.sql?raw';
import probeCancelAckFenced from './probe-cancel-ack-fenced.sql?raw';
import probeCancelAckUnfenced from './probe-cancel-ack-unfenced.sql?raw';
import probeCancelRequest from './probe-cancel-request.sql?raw';
import probeCompleteFenced from './probe-complete-fenced.sql?raw';
import probeCompleteUnfenced from './probe-complete-unfenced.sql?raw';
import probeExpiredRunning from './probe-expired-running.sql?raw';
import probeHeartbeatFenced from './probe-heartbeat-fenced.sql?raw';
import probeHeartbeatUnfenced from './probe-heartbeat-unfenced.sql?raw';
import probeWorkFenced from './probe-work-fenced.sql?raw';
import probeWorkUnfenced from './probe-work-unfenced.sql?raw';
import relockHeldRuns from './relock-held-runs.sql?raw';
import relockWaitedRow from './relock-waited-row.sql?raw';
import runsAndLocksPglite from './runs-and-locks-pglite.sql?raw';
import runsSnapshot from './runs-snapshot.sql?raw';
import runsTablePresent from './runs-table-present.sql?raw';
import schema from './schema.sql?raw';
import seedRuns from './seed-runs.sql?raw';
import serverVersion from './server-version.sql?raw';
import sessionSetup from './session-setup.sql?raw';
import setClock from './set-clock.sql?raw';
import specAdvisoryHeld from './spec-advisory-held.sql?raw';
import specAdvisoryReleaseAll from './spec-advisory-release-all.sql?raw';
import specAdvisoryUndo from './spec-advisory-undo.sql?raw';
import specClusterState from './spec-cluster-state.sql?raw';
import specEnterFailedTransaction from './spec-enter-failed-transaction.sql?raw';
import specOwnFunctions from './spec-own-functions.sql?raw';
import specProbeRelease from './spec-probe-release.sql?raw';
import specProbeSavepoint from './spec-probe-savepoint.sql?raw';
import specProbeUndo from './spec-probe-undo.sql?raw';
import specTableHazards from './spec-table-hazards.sql?raw';
import specTableWrittenByParked from './spec-table-written-by-parked.sql?raw';
import terminateBackend from './terminate-backend.sql?raw';
import transactionBegin from './transaction-begin.sql?raw';
import transactionBeginRepeatableRead from './transaction-begin-repeatable-read.sql?raw';
import transactionBeginSerializable from './transaction-begin-serializable.sql?raw';
import transactionCommit from './transaction-commit.sql?raw';
import modelCall from './model-call.sql?raw';
import transactionRollback from './transaction-rollback.sql?raw';
import truncateRuns from './truncate-runs.sql?raw';
import workFenced from './work-fenced.sql?raw';
import workUnfenced from './work-unfenced.sql?raw';

const texts = {
  'array-types-pglite': arrayTypesPglite,
  'backpressure-arrive': backpressureArrive,
  'backpressure-call-finish': backpressureCallFinish,
  'backpressure-call-lock': backpressureCallLock,
  'backpressure-call-start': backpressureCallStart,
  'backpressure-claim-lock': backpressureClaimLock,
  'backpressure-metrics': backpressureMetrics,
  'backpressure-schema': backpressureSchema,
  'backpressure-scope': backpressureScope,
  'backpressure-vacuum': backpressureVacuum,
  'claim-fair-tenant': claimFairTenant,
  'claim-fifo-tenant': claimFifoTenant,
  'backend-lock-wait': backendLockWait,
  'backend-pid': backendPid,
  'cancel-ack-fenced': cancelAckFenced,
  'cancel-ack-unfenced': cancelAckUnfenced,
  'advisory-unlock-all': advisoryUnlockAll,
  'cancel-backend': cancelBackend,
  'cancel-request': cancelRequest,
  'complete-fenced': completeFenced,
  'complete-unfenced': completeUnfenced,
  'heartbeat-fenced': heartbeatFenced,
  'heartbeat-unfenced': heartbeatUnfenced,
  'held-locks-pglite': heldLocksPglite,
  'held-locks-postgres': heldLocksPostgres,
  'live-console-begin': liveConsoleBegin,
  'live-console-count-rest': liveConsoleCountRest,
  'live-console-fetch': liveConsoleFetch,
  'live-console-settings': liveConsoleSettings,
  'live-console-unlock': liveConsoleUnlock,
  'live-lock-evidence': liveLockEvidence,
  'live-schema': liveSchema,
  'live-schema-drop': liveSchemaDrop,
  'live-schema-state': liveSchemaState,
  'live-session-setup': liveSessionSetup,
  'lock-waiters-postgres': lockWaitersPostgres,
  'naive-select': naiveSelect,
  'observer-setup': observerSetup,
  'prepared-transactions': preparedTransactions,
  'probe-cancel-ack-fenced': probeCancelAckFenced,
  'probe-cancel-ack-unfenced': probeCancelAckUnfenced,
  'probe-cancel-request': probeCancelRequest,
  'probe-complete-fenced': probeCompleteFenced,
  'probe-complete-unfenced': probeCompleteUnfenced,
  'probe-expired-running': probeExpiredRunning,
  'probe-heartbeat-fenced': probeHeartbeatFenced,
  'probe-heartbeat-unfenced': probeHeartbeatUnfenced,
  'probe-work-fenced': probeWorkFenced,
  'probe-work-unfenced': probeWorkUnfenced,
  'relock-held-runs': relockHeldRuns,
  'relock-waited-row': relockWaitedRow,
  'runs-and-locks-pglite': runsAndLocksPglite,
  'runs-snapshot': runsSnapshot,
  'runs-table-present': runsTablePresent,
  schema,
  'seed-runs': seedRuns,
  'server-version': serverVersion,
  'session-setup': sessionSetup,
  'set-clock': setClock,
  'spec-advisory-held': specAdvisoryHeld,
  'spec-advisory-release-all': specAdvisoryReleaseAll,
  'spec-advisory-undo': specAdvisoryUndo,
  'spec-cluster-state': specClusterState,
  'spec-enter-failed-transaction': specEnterFailedTransaction,
  'spec-own-functions': specOwnFunctions,
  'model-call': modelCall,
  'spec-probe-release': specProbeRelease,
  'spec-probe-savepoint': specProbeSavepoint,
  'spec-probe-undo': specProbeUndo,
  'spec-table-hazards': specTableHazards,
  'spec-table-written-by-parked': specTableWrittenByParked,
  'terminate-backend': terminateBackend,
  'transaction-begin': transactionBegin,
  'transaction-begin-repeatable-read': transactionBeginRepeatableRead,
  'transaction-begin-serializable': transactionBeginSerializable,
  'transaction-commit': transactionCommit,
  'transaction-rollback': transactionRollback,
  'truncate-runs': truncateRuns,
  'work-fenced': workFenced,
  'work-unfenced': workUnfenced,
} as const;

export type SqlId = keyof typeof texts;

export const SQL_IDS = Object.keys(texts) as SqlId[];

/** The statement's text, trimmed of the file's trailing newline (and of a final `;`, which drivers reject in extended protocol). */
export function sqlText(id: SqlId): string {
  return statementText(texts[id]);
}

/** A .sql file's text as the lab sends it: trimmed, without a final `;`. */
export function statementText(raw: string): string {
  return raw.trim().replace(/;$/, '');
}

/** The highest $n in a statement's text. */
export function highestParameter(text: string): number {
  let highest = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}
