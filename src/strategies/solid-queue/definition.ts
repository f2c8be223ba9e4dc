/**
 * Solid Queue (rails/solid_queue@29e818d): a skip-locked claim of ready executions, ownership while the
 * worker's process heartbeats, and a completion that finalizes only its own claimed execution. Here the
 * switch is Solid Queue's own history: fencing off is its completion before that guard (by id, issue
 * #589), fencing on is the claimed-execution guard, which the lab writes as the generation check.
 */
import { SHARED_WRITES } from '../shared';
import { queueClaim, queueSweep, queueWrite } from '../queue';
import { strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claim from './solid-queue-claim.sql?raw';
import claimReady from './solid-queue-claim-ready.sql?raw';
import cancelAck from './solid-queue-cancel-ack.sql?raw';
import cancelAckClaimed from './solid-queue-cancel-ack-claimed.sql?raw';
import complete from './solid-queue-complete.sql?raw';
import completeClaimed from './solid-queue-complete-claimed.sql?raw';
import probeById from './solid-queue-probe-by-id.sql?raw';
import probeClaimed from './solid-queue-probe-claimed.sql?raw';
import prune from './solid-queue-prune.sql?raw';
import work from './solid-queue-work.sql?raw';

const FOLDER = 'solid-queue';
const BY_ID = strategyText(FOLDER, 'solid-queue-probe-by-id', probeById);
const CLAIMED = strategyText(FOLDER, 'solid-queue-probe-claimed', probeClaimed);

export const solidQueue = {
  id: 'solid-queue',
  label: 'Solid Queue: process heartbeat, the claim row as token',
  inWords: "Solid Queue's claim (skip-locked ready executions, a process heartbeat, the claimed execution as token)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'solid-queue-claim', claim) },
  // The process heartbeat renews every claim of that process; one lab worker holds one run, so the lab's own heartbeat (owner and run) is that.
  heartbeat: SHARED_WRITES.heartbeat,
  work: { fenced: SHARED_WRITES.work.fenced, unfenced: queueWrite(strategyText(FOLDER, 'solid-queue-work', work), roleParams('work', false), BY_ID) },
  // Fenced: the claim's generation on a running run names one live claim, as a claimed execution's row does; a pruned claim's row is gone, so its finalize does nothing.
  complete: {
    fenced: queueWrite(strategyText(FOLDER, 'solid-queue-complete-claimed', completeClaimed), roleParams('complete', true), CLAIMED),
    unfenced: queueWrite(strategyText(FOLDER, 'solid-queue-complete', complete), roleParams('complete', false), BY_ID),
  },
  cancelAck: {
    fenced: queueWrite(strategyText(FOLDER, 'solid-queue-cancel-ack-claimed', cancelAckClaimed), roleParams('cancel-ack', true), CLAIMED),
    unfenced: queueWrite(strategyText(FOLDER, 'solid-queue-cancel-ack', cancelAck), roleParams('cancel-ack', false), BY_ID),
  },
  rescuer: {
    shape: 'one-statement',
    claim: queueClaim(FOLDER, 'solid-queue-claim-ready', claimReady),
    sweep: queueSweep(FOLDER, 'solid-queue-prune', prune, "the pruner's UPDATE"),
    inWords:
      "The supervisor's pruner: one UPDATE fails every claim whose process has not heartbeated for process_alive_threshold, without asking whether the process still runs the job. The fencing switch changes only the workers' finalizing writes: on, they need their own claim still there.",
  },
  queue: {
    name: 'Solid Queue',
    source: 'rails/solid_queue@29e818d9c1181195736ffc5d7c1d1c03757b7752',
    files: [
      'app/models/solid_queue/ready_execution.rb',
      'app/models/solid_queue/claimed_execution.rb',
      'app/models/solid_queue/process/prunable.rb',
      'app/models/solid_queue/process/executor.rb',
      'lib/solid_queue.rb',
    ],
    ownershipEnds:
      'A pruned process: the supervisor prunes a process whose heartbeat is older than process_alive_threshold (5 minutes by default) and fails its claimed executions (a process that stops cleanly releases them instead).',
    heartbeat: 'Per process, every process_heartbeat_interval (60 seconds by default): it keeps every claim of that process alive.',
    completionGuard:
      'The claim row as token: finalize locks its own claimed execution and does nothing if that row is gone (since v1.5.0, for issue #589; before, the job was finished regardless).',
    fencingSwitch:
      "Off: the completion before the claimed-execution guard, by id. On: the claimed-execution guard on the completion and cancel, written as the lab's generation check on a running run (one generation per claim, as one claimed-execution row per claim).",
    inTheLab:
      "process_alive_threshold is the scenario's lease and the heartbeat is per run (one lab worker runs one run); without a rescuer the pruning that ends a claim is folded into the next claim of the run. Where a scenario has a rescuer (#589's), the pruner is its own session: one UPDATE marks every stale claim's run failed, and the claim takes pending runs only. Ready and claimed executions are one runs row. Concurrency limits are not modelled.",
  },
} as const satisfies StrategyDefinition;
