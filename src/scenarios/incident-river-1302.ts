import { defineScenario } from './define';

/** riverqueue/river #1302, fixed by PR #1373: the rescuer overwrote a job that completed after its stuck-job read. */
export const incidentRiver1302 = defineScenario({
  id: 'incident-river-1302',
  title: 'River #1302: the rescuer overwrote a job that had just completed',
  summary:
    "A's job runs past RescueStuckJobsAfter. The rescuer reads it as stuck, A completes it, then the rescuer's\nwrite, by id alone, puts it back to pending: B claims it and runs it again.",
  leaseSeconds: 3600,
  heartbeatSeconds: null,
  workSteps: 1,
  defaultStrategy: 'river',
  defaultFencing: false,
  rescuer: {},
  script: ['A', 'A', 'A', '+3601', 'rescue', 'A', 'rescue', 'B', 'B', 'B', 'B'],
  concepts: ['lease', 'fencing'],
  incident: {
    queue: 'river',
    source: 'riverqueue/river#1302',
    url: 'https://github.com/riverqueue/river/issues/1302',
    whatUsersSaw:
      'A job that completed right after the rescuer fetched it as stuck was moved back to retryable by the rescue, and ran again (fixed by PR #1373).',
    rootCause:
      "Fencing, for the rescuer's own write: JobGetStuck reads running jobs without locking them, and JobRescueMany then updated them by id alone, so a completion between the read and the write was overwritten.",
    inTheLab:
      "The rescuer is its own session, stepped by the rescue token: its read (JobGetStuck) and its write (JobRescueMany, one run per step) are separate statements. River's retryable state and backoff are left out: the rescue puts the run straight back to pending, which River's scheduler does once the backoff passes.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'river',
      fencing: true,
      inWords: "PR #1373's re-check in the rescuer's write: the run must still be running on the attempt the rescuer read, so A's completed run is left alone",
    },
  },
});
