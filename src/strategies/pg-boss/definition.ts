/**
 * pg-boss (timgit/pg-boss@55ee32f): a skip-locked fetch, an expiry counted from the start, a touch that
 * records heartbeat_on, and a completion guarded by state = 'active' only. Fencing off plays pg-boss's own
 * guard; fencing on puts the lab's generation fence on the owner's writes instead.
 */
import { SHARED_WRITES } from '../shared';
import { queueClaim, queueSweep, queueWrite } from '../queue';
import { sharedText, strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import claim from './pg-boss-claim.sql?raw';
import claimPending from './pg-boss-claim-pending.sql?raw';
import failExpired from './pg-boss-fail-expired.sql?raw';
import touch from './pg-boss-touch.sql?raw';
import touchFenced from './pg-boss-touch-fenced.sql?raw';

export const pgBoss = {
  id: 'pg-boss',
  label: 'pg-boss: expiry from the start, complete if active',
  inWords: "pg-boss's fetch (skip-locked, an expiry counted from the start, completion if still active)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim('pg-boss', 'pg-boss-claim', claim) },
  heartbeat: {
    // The touch tests the same row as the lab's unfenced and fenced completions, so their probes fit it.
    unfenced: queueWrite(strategyText('pg-boss', 'pg-boss-touch', touch), ['run'], sharedText('probe-complete-unfenced')),
    fenced: queueWrite(strategyText('pg-boss', 'pg-boss-touch-fenced', touchFenced), ['run', 'generation'], sharedText('probe-complete-fenced')),
  },
  // pg-boss's completion checks state = 'active' and nothing else: the lab's own unfenced writes check exactly that ('running').
  work: SHARED_WRITES.work,
  complete: SHARED_WRITES.complete,
  cancelAck: SHARED_WRITES.cancelAck,
  rescuer: {
    shape: 'one-statement',
    claim: queueClaim('pg-boss', 'pg-boss-claim-pending', claimPending),
    sweep: queueSweep('pg-boss', 'pg-boss-fail-expired', failExpired, "the supervisor's UPDATE"),
    inWords:
      "pg-boss's supervisor (its maintenance): one statement fails every active job past its expiry and puts it back as a retry, on time alone. It reads nothing first and checks no worker, so the fencing switch changes only the workers' writes.",
  },
  queue: {
    name: 'pg-boss',
    source: 'timgit/pg-boss@55ee32f66f0bf683ff823c0ad8be2056dbc91ce4',
    files: ['src/plans.ts'],
    ownershipEnds:
      'An expiry: maintenance fails an active job once started_on + expireInSeconds (15 minutes by default) has passed, and retries it if it has retries left, while its first worker may still be running it.',
    heartbeat:
      'Optional and off by default: a touch sets heartbeat_on; with heartbeatSeconds set, a job whose heartbeat_on is too old is failed too. Neither moves the expiry.',
    completionGuard: "state = 'active' only: no owner or attempt check, so an expired job's first worker completes its retry.",
    fencingSwitch:
      "Off: pg-boss's own guard, state = 'active'. On: the lab's generation fence on the touch, progress, completion and cancel, which pg-boss does not have.",
    inTheLab:
      "expireInSeconds is the scenario's lease; the maintenance that fails an expired job and its retry are folded into the claim. Where a scenario has a rescuer (#555's), maintenance is its own session: one UPDATE puts every expired job back to pending, the retry, and the fetch takes pending runs only. The heartbeat timeout is not modelled (it can only end ownership sooner). Priorities, singleton keys and group concurrency are not modelled.",
  },
} as const satisfies StrategyDefinition;
