/**
 * DBOS Transact for Java (dbos-inc/dbos-transact-java@f78a0ce): workflows whose status row is the job. A queued
 * workflow is dequeued by a skip-locked SELECT and an UPDATE to PENDING under the process's executor id; no
 * lease and no heartbeat, so nothing but a recovery of that executor id takes a PENDING workflow back; the
 * outcome is written by id. The recovery is a lane of a process (WorkerSpec.recovery):
 * at launch it reads the PENDING workflows of its executor id created no later than an instant read at launch,
 * then writes each one's status again by id and runs it. Fencing off plays DBOS's own guards; fencing on puts
 * the lab's generation fence on the owner's writes instead.
 */

import { noHeartbeat, ownerWritesById, queueWrite } from '../queue';
import { neverWaits, strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './dbos-cancel-ack.sql?raw';
import claim from './dbos-claim.sql?raw';
import complete from './dbos-complete.sql?raw';
import heartbeat from './dbos-no-heartbeat.sql?raw';
import heartbeatFenced from './dbos-no-heartbeat-fenced.sql?raw';
import probeById from './dbos-probe-by-id.sql?raw';
import recoverRead from './dbos-recover-read.sql?raw';
import skipActive from './dbos-recover-skip-active.sql?raw';
import recoverUpsert from './dbos-recover-upsert.sql?raw';
import work from './dbos-work.sql?raw';

const FOLDER = 'dbos';
const BY_ID = strategyText(FOLDER, 'dbos-probe-by-id', probeById);

export const dbos = {
  id: 'dbos',
  label: 'DBOS Transact: executor id, no lease, recovery at launch',
  inWords: "DBOS Transact's dequeue (skip-locked, PENDING under the process's executor id, no lease; outcome by id)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: neverWaits(strategyText(FOLDER, 'dbos-claim', claim), ['worker']) },
  heartbeat: noHeartbeat(FOLDER, 'dbos', heartbeat, heartbeatFenced),
  ...ownerWritesById(FOLDER, 'dbos', { work, complete, cancelAck }, BY_ID),
  recovery: {
    read: neverWaits(strategyText(FOLDER, 'dbos-recover-read', recoverRead), ['worker']),
    // By id, as the owner's writes: it waits only on a row another transaction holds, and re-checks that row.
    write: queueWrite(strategyText(FOLDER, 'dbos-recover-upsert', recoverUpsert), ['run', 'worker'], BY_ID),
    skipActive: neverWaits(strategyText(FOLDER, 'dbos-recover-skip-active', skipActive), []),
  },
  queue: {
    name: 'DBOS Transact',
    source: 'dbos-inc/dbos-transact-java@f78a0ce86f9e6181337c412cdf226aa4b8f859b3',
    files: [
      'transact/src/main/java/dev/dbos/transact/database/dao/QueuesDAO.java',
      'transact/src/main/java/dev/dbos/transact/database/dao/WorkflowDAO.java',
      'transact/src/main/java/dev/dbos/transact/execution/DBOSExecutor.java',
    ],
    ownershipEnds:
      "Never on time: a PENDING workflow keeps its executor id, with no lease or heartbeat, until its outcome is written; a process recovers, at launch, the PENDING workflows of its own executor id (the id a restarted process keeps: DBOS__VMID, or 'local') created no later than an instant it read at launch.",
    heartbeat: 'None: nothing renews a PENDING workflow, and nothing expires.',
    completionGuard: "The id, and status != 'CANCELLED' (updateWorkflowOutcome): no executor check, so every execution of a workflow writes its outcome.",
    fencingSwitch:
      "Off: DBOS's own guards (the id; the outcome also not over a cancel). On: the lab's generation fence on progress, completion and cancel, which DBOS does not have.",
    inTheLab:
      "ENQUEUED is pending, PENDING is running, executor_id is lease_owner, and the attempt the recovery counts is lease_generation. The dequeue's SELECT and UPDATE are one statement; priorities, partitions, rate and concurrency limits, application versions and the operation_outputs table are not modelled: the model calls stand for the body's own work, which every execution runs (DBOS replays a checkpointed step's output instead of running the step again). A run a process never recovers stays running: the lab has no launch but the recovery lanes a scenario declares.",
  },
} as const satisfies StrategyDefinition;
