/**
 * graphile-worker (graphile/worker@abfb4cf): a skip-locked claim, a fixed 4-hour lock age, no heartbeat,
 * and a completion that deletes the job by id. Fencing off plays graphile-worker's own guard (the id);
 * fencing on puts the lab's generation fence on the owner's writes instead.
 */

import { noHeartbeat, ownerWritesById, queueClaim, queueSweep } from '../queue';
import { strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './graphile-cancel-ack.sql?raw';
import claim from './graphile-claim.sql?raw';
import claimAvailable from './graphile-claim-available.sql?raw';
import complete from './graphile-complete.sql?raw';
import heartbeat from './graphile-no-heartbeat.sql?raw';
import heartbeatFenced from './graphile-no-heartbeat-fenced.sql?raw';
import probeById from './graphile-probe-by-id.sql?raw';
import resetLocked from './graphile-reset-locked.sql?raw';
import work from './graphile-work.sql?raw';

const FOLDER = 'graphile-worker';
const BY_ID = strategyText(FOLDER, 'graphile-probe-by-id', probeById);

export const graphileWorker = {
  id: 'graphile-worker',
  label: 'graphile-worker: 4-hour lock, no heartbeat, complete by id',
  inWords: "graphile-worker's claim (skip-locked, a fixed lock age, completion by id)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'graphile-claim', claim) },
  heartbeat: noHeartbeat(FOLDER, 'graphile', heartbeat, heartbeatFenced),
  ...ownerWritesById(FOLDER, 'graphile', { work, complete, cancelAck }, BY_ID),
  rescuer: {
    shape: 'one-statement',
    claim: queueClaim(FOLDER, 'graphile-claim-available', claimAvailable),
    sweep: queueSweep(FOLDER, 'graphile-reset-locked', resetLocked, "the reset's UPDATE"),
    inWords:
      "The stale-lock reset: one UPDATE frees every job locked more than 4 hours ago, on lock age alone. It reads nothing first and checks no worker, so the fencing switch changes only the workers' writes.",
  },
  queue: {
    name: 'graphile-worker',
    source: 'graphile/worker@abfb4cff30747ad423046d117dfb88470f03ae00',
    files: ['src/sql/getJobs.ts', 'src/sql/resetLockedAt.ts', 'src/sql/completeJobs.ts', 'src/sql/failJobs.ts'],
    ownershipEnds: 'A fixed lock age: a periodic reset frees any job whose locked_at is more than 4 hours old, whether or not its worker is still running it.',
    heartbeat: 'None: nothing renews a lock while the job runs.',
    completionGuard:
      'The id only: completion deletes the job by id, so a worker whose lock was reset still completes it (failure, not modelled here, checks locked_by).',
    fencingSwitch:
      "Off: graphile-worker's own guard, the id. On: the lab's generation fence on progress, completion and cancel, which graphile-worker does not have.",
    inTheLab:
      "The lock age is the scenario's lease (4 hours in graphile-worker); the periodic reset is folded into the claim, so a run is claimable as soon as its lock is older than that. Where a scenario has a rescuer (#169's), the reset is its own session: one UPDATE frees every stale lock, and the claim takes pending runs only. The lab marks the run done rather than deleting it, and has no named queues, priorities or batches.",
  },
} as const satisfies StrategyDefinition;
