import { defineScenario } from './define';

/** procrastinate-org/procrastinate #1408: the periodic task that retries stalled jobs stalled itself. */
export const incidentProcrastinate1408 = defineScenario({
  id: 'incident-procrastinate-1408',
  title: 'procrastinate #1408: the stalled-job retry stalled itself',
  summary:
    "The task that retries stalled jobs stalls at 0:15, and A crashes holding run 123. The run is stalled, but\nnothing retries it: B's fetch takes todo jobs only, and run 123 stays doing under a dead worker.",
  leaseSeconds: 30,
  heartbeatSeconds: 10,
  workSteps: 2,
  defaultStrategy: 'procrastinate',
  defaultFencing: false,
  rescuer: { stallsAtSeconds: 15 },
  script: ['A', 'A', 'rescue', '+20', 'crash:A', '+40', 'rescue', 'B'],
  concepts: ['lease', 'heartbeat'],
  incident: {
    queue: 'procrastinate',
    source: 'procrastinate-org/procrastinate#1408',
    url: 'https://github.com/procrastinate-org/procrastinate/issues/1408',
    whatUsersSaw:
      'The periodic retry_stalled_jobs task, itself a job with a lock, stalled; no later run of it could start, and from then on every stalled job stayed stalled.',
    rootCause: 'Lease: nothing takes a stalled job back but a task the user schedules, and that task can stall like any job. The rescuer needs rescuing too.',
    inTheLab:
      "The retry task is the rescuer's own session (get_stalled_jobs, then retry_job per job), stepped by the rescue token; its stall (a worker that died holding the task's lock) is a moment after which it runs nothing. Locks and queueing locks are not modelled.",
    anomaly: 'stranded-run',
    fix: {
      strategy: 'skip-locked',
      fencing: true,
      inWords: "the lab's lease-expiry claim: B's claim itself takes back a run whose lease expired, so there is no separate rescuer to stall",
    },
  },
});
