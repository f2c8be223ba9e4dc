import { defineScenario } from './define';

/** timgit/pg-boss #555: an expired job kept running beside its retry. */
export const incidentPgBoss555 = defineScenario({
  id: 'incident-pg-boss-555',
  title: 'pg-boss #555: an expired job kept running beside its retry',
  summary:
    "A's job outlives pg-boss's 15-minute expiry; touching it does not move the expiry. The supervisor puts it\nback as a retry and B starts it while A still runs. A's writes still land: the guard checks only that the job is active.",
  leaseSeconds: 15 * 60,
  heartbeatSeconds: 600,
  workSteps: 2,
  defaultStrategy: 'pg-boss',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+600', 'A', '+301', 'rescue', 'B', 'B', 'B', 'A', 'A', 'B', 'B'],
  concepts: ['lease', 'fencing'],
  // The expiry is the supervisor's work, on a timer apart from the workers: the rescuer's own session.
  rescuer: {},
  incident: {
    queue: 'pg-boss',
    source: 'timgit/pg-boss#555',
    url: 'https://github.com/timgit/pg-boss/issues/555',
    whatUsersSaw: 'A job that ran past its expiration kept running while pg-boss started its retry: two copies of one job at once.',
    rootCause:
      "Lease and fencing: the expiry counts from the start and the running copy is never told; pg-boss's writes check only state = 'active', which the retry has set again, so the expired copy's writes still land.",
    inTheLab:
      "The supervisor is the rescuer's lane: one UPDATE puts the expired job back to pending, pg-boss's retry, on time alone; the fetch takes pending runs only.",
    anomaly: 'split-ownership',
    fix: { strategy: 'pg-boss', fencing: true, inWords: "the lab's generation fence on pg-boss's writes: A's writes after the retry match no row and A stops" },
  },
});
