import { defineScenario } from './define';

/** rails/solid_queue #589: a live worker whose heartbeat went stale was pruned while it finished its job. */
export const incidentSolidQueue589 = defineScenario({
  id: 'incident-solid-queue-589',
  title: 'Solid Queue #589: a pruned worker still finished its job',
  summary:
    "A's process heartbeat stalls while its job runs on. After 5 minutes the supervisor prunes A and fails its claim;\nthen A finishes the job: before v1.5.0 that finish landed although A's claim was gone.",
  leaseSeconds: 5 * 60,
  // A's heartbeat has stalled while its job thread runs on: the lab plays that as no heartbeat at all.
  heartbeatSeconds: null,
  workSteps: 1,
  defaultStrategy: 'solid-queue',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+301', 'rescue', 'A'],
  concepts: ['fencing', 'heartbeat'],
  // The pruner is the supervisor's maintenance on a timer, apart from the workers: the rescuer's own session.
  rescuer: {},
  incident: {
    queue: 'solid-queue',
    source: 'rails/solid_queue#589',
    url: 'https://github.com/rails/solid_queue/issues/589',
    whatUsersSaw:
      'Jobs that had finished were also marked failed: the pruner had failed them while their worker, alive but late with its heartbeat, was finishing them.',
    rootCause:
      "Fencing: the worker's finish did not check that its claim still existed, so a claim the pruner had ended was finalized a second time; v1.5.0 finalizes a claimed execution only while its row is there (the claim row as token).",
    inTheLab:
      "The pruner is the rescuer's lane: one UPDATE marks the run of every claim whose heartbeat is older than 5 minutes failed, and the claim takes pending runs only. A's stalled heartbeat is played as none.",
    anomaly: 'finalized-twice',
    fix: {
      strategy: 'solid-queue',
      fencing: true,
      inWords: "Solid Queue's own fix (v1.5.0): finalize only while this claim's row exists, written as the lab's generation check on a running run",
    },
  },
});
