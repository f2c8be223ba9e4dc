/**
 * River (riverqueue/river@fdf6cdf): a skip-locked claim, a rescuer for jobs running longer than
 * RescueStuckJobsAfter, no heartbeat, and a completion guarded by state = 'running' only. Fencing off
 * plays River's own guard; fencing on puts the lab's generation fence on the owner's writes instead, and
 * its completion also finalizes a run whose cancel was requested as cancelled (River PR #141's check).
 */
import { SHARED_WRITES } from '../shared';
import { noHeartbeat, queueClaim, queueWrite } from '../queue';
import { neverWaits, sharedText, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claim from './river-claim.sql?raw';
import claimAvailable from './river-claim-available.sql?raw';
import completeFenced from './river-complete-fenced.sql?raw';
import probeRescue from './river-probe-rescue.sql?raw';
import probeRescueGuarded from './river-probe-rescue-guarded.sql?raw';
import rescue from './river-rescue.sql?raw';
import rescueFetch from './river-rescue-fetch.sql?raw';
import rescueGuarded from './river-rescue-guarded.sql?raw';
import heartbeat from './river-no-heartbeat.sql?raw';
import heartbeatFenced from './river-no-heartbeat-fenced.sql?raw';

export const river = {
  id: 'river',
  label: 'River: rescuer after a running time, no heartbeat, complete if running',
  inWords: "River's claim (skip-locked, a rescue after a running time, completion if still running)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim('river', 'river-claim', claim) },
  heartbeat: noHeartbeat('river', 'river', heartbeat, heartbeatFenced),
  // River's completion checks state = 'running' and nothing else: the lab's own unfenced writes check exactly that.
  work: SHARED_WRITES.work,
  complete: {
    // Fenced, it tests the same row as the lab's fenced completion, so that completion's probe fits it.
    fenced: queueWrite(strategyText('river', 'river-complete-fenced', completeFenced), roleParams('complete', true), sharedText('probe-complete-fenced')),
    unfenced: SHARED_WRITES.complete.unfenced,
  },
  cancelAck: SHARED_WRITES.cancelAck,
  rescuer: {
    shape: 'read-then-write',
    claim: queueClaim('river', 'river-claim-available', claimAvailable),
    fetch: neverWaits(strategyText('river', 'river-rescue-fetch', rescueFetch), []),
    rescue: {
      unfenced: queueWrite(strategyText('river', 'river-rescue', rescue), ['run'], strategyText('river', 'river-probe-rescue', probeRescue)),
      fenced: queueWrite(
        strategyText('river', 'river-rescue-guarded', rescueGuarded),
        ['run', 'generation'],
        strategyText('river', 'river-probe-rescue-guarded', probeRescueGuarded),
      ),
    },
    inWords:
      "Fencing off: River's JobRescueMany before PR #1373, by id alone (issue #1302). On: PR #1373's re-check that the job is still running on the attempt the rescuer fetched.",
  },
  queue: {
    name: 'River',
    source: 'riverqueue/river@fdf6cdf12567a5b70c003f5ff850273f09e7efcf',
    files: ['riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql'],
    ownershipEnds:
      'A rescuer on a timer: it finds running jobs whose attempted_at is older than RescueStuckJobsAfter (1 hour by default) and makes them retryable (or discards them once out of attempts).',
    heartbeat: 'None: nothing renews a running job (issue #682 asks for one).',
    completionGuard:
      "state = 'running' only (JobSetStateIfRunningMany): the attempt is passed but not compared, so a rescued job's first worker still completes it while it is running again. A job that returns success after a cancel was attempted is completed (PR #141 cancels it only if it would be retried).",
    fencingSwitch:
      "Off: River's own guard, state = 'running'. On: the lab's generation fence on progress, completion and cancel, which River does not have, and a completion that finalizes a run whose cancel was requested as cancelled (River PR #141's check, which River applies only to a job about to be retried); where a scenario has a rescuer, PR #1373's re-check in the rescuer's write.",
    inTheLab:
      "RescueStuckJobsAfter is the scenario's lease; the rescuer and the retry are folded into the claim, so a run is claimable as soon as its attempt is older than that, with no gap in which the rescuer's write and a completion can race. Where a scenario has a rescuer (issue #1302's), it is its own session: a read of stuck jobs, then a write per job, and the claim takes pending runs only. Priorities, queues and retry backoff are not modelled.",
  },
} as const satisfies StrategyDefinition;
