/**
 * Hangfire.PostgreSql (hangfire-postgres/Hangfire.PostgreSql@942fccb, the merge of PR #353): a skip-locked
 * fetch that takes an entry back once its fetchedat is older than InvisibilityTimeout, a sliding refresh of
 * fetchedat when UseSlidingInvisibilityTimeout is on, and Hangfire's completion, a state change expecting
 * Processing. Fencing off plays Hangfire's own guard; fencing on puts the lab's generation fence on the
 * owner's writes instead.
 */
import { SHARED_WRITES } from '../shared';
import { queueClaim, queueWrite } from '../queue';
import { sharedText, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claim from './hangfire-claim.sql?raw';
import complete from './hangfire-complete.sql?raw';
import slide from './hangfire-slide.sql?raw';

const FOLDER = 'hangfire';

export const hangfire = {
  id: 'hangfire',
  label: 'Hangfire.PostgreSql: invisibility timeout, sliding if on, complete if Processing',
  inWords: "Hangfire.PostgreSql's fetch (skip-locked, fetchable again after the invisibility timeout, completion while Processing)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'hangfire-claim', claim) },
  heartbeat: {
    // The refresh tests the same row as the lab's unfenced heartbeat (the run and its owner), so its probe fits it.
    unfenced: queueWrite(strategyText(FOLDER, 'hangfire-slide', slide), ['run', 'worker', 'leaseSeconds'], sharedText('probe-heartbeat-unfenced')),
    fenced: SHARED_WRITES.heartbeat.fenced,
  },
  // Hangfire's worker moves the job to Succeeded expecting the state Processing, by name only (hangfire-complete.sql):
  // the lab's unfenced progress and cancel writes check exactly that ('running').
  work: SHARED_WRITES.work,
  complete: {
    fenced: SHARED_WRITES.complete.fenced,
    unfenced: queueWrite(strategyText(FOLDER, 'hangfire-complete', complete), roleParams('complete', false), sharedText('probe-complete-unfenced')),
  },
  cancelAck: SHARED_WRITES.cancelAck,
  queue: {
    name: 'Hangfire.PostgreSql',
    source: 'hangfire-postgres/Hangfire.PostgreSql@942fccb78aacc4c811166ff7203977d270e19228',
    files: [
      'src/Hangfire.PostgreSql/PostgreSqlJobQueue.cs',
      'src/Hangfire.PostgreSql/PostgreSqlFetchedJob.cs',
      'src/Hangfire.PostgreSql/PostgreSqlStorageOptions.cs',
    ],
    ownershipEnds:
      'An invisibility timeout: a fetched job is fetchable again once its fetchedat is older than InvisibilityTimeout (30 minutes by default), whether or not its worker still runs it.',
    heartbeat:
      "Off by default. With UseSlidingInvisibilityTimeout (PR #353, for issue #209) the worker refreshes its entry's fetchedat every InvisibilityTimeout / 5, so a job is not fetchable again while its worker keeps refreshing it.",
    completionGuard:
      "The state's name only: Hangfire's worker changes the job to Succeeded expecting Processing, and a job a second fetch moved to Processing again passes (since PR #353 the queue entry's removal also checks fetchedat).",
    fencingSwitch: "Off: Hangfire's own guard, state Processing. On: the lab's generation fence on the refresh, progress, completion and cancel.",
    inTheLab:
      "InvisibilityTimeout is the scenario's lease; a scenario with a heartbeat plays UseSlidingInvisibilityTimeout on (its refresh at the worker's own steps, not on a background timer), one without plays it off. The refresh's fetchedat check is the entry's owner in the lab. Not modelled: the job's cancellation token (which tells a job that checks it that its state changed), the states' own rows, the queue entry's removal, named queues and the fetch's order (fetchedat, nulls first).",
  },
} as const satisfies StrategyDefinition;
