/**
 * delayed_job with its Active Record backend on PostgreSQL (collectiveidea/delayed_job_active_record@e5b4fbf,
 * collectiveidea/delayed_job@eaef62d): a skip-locked reserve that also takes any job locked under the
 * worker's own name, a lock that ends after max_run_time, no heartbeat, and a completion that deletes the
 * job by id. Fencing off plays delayed_job's own guard (the id); fencing on puts the lab's generation fence
 * on the owner's writes instead.
 */

import { noHeartbeat, ownerWritesById, queueClaim } from '../queue';
import { strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './delayed-job-cancel-ack.sql?raw';
import claim from './delayed-job-claim.sql?raw';
import complete from './delayed-job-complete.sql?raw';
import heartbeat from './delayed-job-no-heartbeat.sql?raw';
import heartbeatFenced from './delayed-job-no-heartbeat-fenced.sql?raw';
import probeById from './delayed-job-probe-by-id.sql?raw';
import work from './delayed-job-work.sql?raw';

const FOLDER = 'delayed-job';
const BY_ID = strategyText(FOLDER, 'delayed-job-probe-by-id', probeById);

export const delayedJob = {
  id: 'delayed-job',
  label: 'delayed_job: lock by name, max_run_time, complete by id',
  inWords: "delayed_job's reserve (skip-locked, a job locked under the worker's own name taken back at once, completion by id)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'delayed-job-claim', claim) },
  heartbeat: noHeartbeat(FOLDER, 'delayed-job', heartbeat, heartbeatFenced),
  ...ownerWritesById(FOLDER, 'delayed-job', { work, complete, cancelAck }, BY_ID),
  queue: {
    name: 'delayed_job',
    source: 'collectiveidea/delayed_job_active_record@e5b4fbf8c65698d575d1afc95e4ae55e4646d24e',
    files: ['lib/delayed/backend/active_record.rb'],
    ownershipEnds:
      "max_run_time (4 hours by default): a job locked longer ago is ready again, whether or not its worker still runs it; and a job locked under a worker's name is ready for any worker of that name at once.",
    heartbeat: 'None: nothing renews locked_at while the job runs.',
    completionGuard:
      'The id only: the worker destroys a finished job by id (collectiveidea/delayed_job@eaef62d:lib/delayed/worker.rb, run), so every worker that ran it completes it.',
    fencingSwitch: "Off: delayed_job's own guard, the id. On: the lab's generation fence on progress, completion and cancel, which delayed_job does not have.",
    inTheLab:
      "max_run_time is the scenario's lease and locked_by the run's lease_owner; a scenario's worker names are the names the workers reserve under (the default is \"host:<hostname> pid:<pid>\"). Priorities, queues, run_at in the future, read_ahead, attempts and failure are not modelled; the worker's Timeout around the job is left out; the lab marks the run done rather than deleting it.",
  },
} as const satisfies StrategyDefinition;
