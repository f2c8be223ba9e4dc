import { defineScenario } from './define';

/** timgit/pg-boss #529: a scheduled job got the default 15-minute expiry instead of its 6 hours and ran again. */
export const incidentPgBoss529 = defineScenario({
  id: 'incident-pg-boss-529',
  title: 'pg-boss #529: a scheduled job asked for 6 hours of expiry and got 15 minutes',
  summary:
    "The schedule says expireInHours: 6, but the job it sends carries pg-boss's default 15 minutes. A's job\nruns 20 minutes, so at 15:15:01 pg-boss retries it and B starts it while A still runs: one daily job, run twice.",
  // What the job row carried (expire_in 00:15:00 in the report), not the 6 hours the schedule asked for.
  leaseSeconds: 15 * 60,
  // pg-boss's heartbeat is off by default, and the report sets none.
  heartbeatSeconds: null,
  workSteps: 2,
  defaultStrategy: 'pg-boss',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+901', 'rescue', 'B', 'B', 'B', 'A', 'A', 'B', 'B'],
  concepts: ['lease'],
  // The expiry is the supervisor's work, on a timer apart from the workers: the rescuer's own session.
  rescuer: {},
  incident: {
    queue: 'pg-boss',
    source: 'timgit/pg-boss#529',
    url: 'https://github.com/timgit/pg-boss/issues/529',
    whatUsersSaw: 'A job scheduled once a day with expireInHours: 6 ran again whenever it took longer than 15 minutes; its row showed expire_in 00:15:00.',
    rootCause:
      "Lease: the lease that counts is the one written on the job's row, not the one configured. pg-boss stored the schedule's options but its timekeeper did not pass them to the jobs it sent, so each got the 15-minute default expiry, and pg-boss retried a job still running past it.",
    inTheLab:
      "The cron schedule is left out: run 123 is the job it sent, already carrying the 15-minute lease. The 20-minute job is two model calls 15 minutes apart. pg-boss's supervisor, in the rescuer's lane, puts the expired job back to pending, its retry; the retry limit is not modelled.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'pg-boss',
      fencing: false,
      scenarioId: 'pg-boss-pr-523',
      inWords:
        "pg-boss's own fix (PR #523, which its maintainer expected to resolve this): the timekeeper passes the schedule's expireInHours: 6 to the job, which finishes well inside it",
    },
  },
});
