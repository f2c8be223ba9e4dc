import { defineScenario } from './define';

/**
 * janbjorge/pgqueuer #430: a job's heartbeat went out once per retry_timer, so the dequeue took the job again
 * while it still ran. The code it follows: janbjorge/pgqueuer@0aa3dde:pgqueuer/qm.py (Heartbeat at
 * retry_timer, the buffer flushed at half the smallest retry_timer) and pgqueuer/qb.py (the dequeue's retry
 * of a picked job whose heartbeat is older than retry_timer).
 */
export const incidentPgqueuer430 = defineScenario({
  id: 'incident-pgqueuer-430',
  title: 'pgqueuer #430: a beat once per retry_timer let a running job be picked again',
  summary:
    "A's job has retry_timer 60 s, and A beats only once every 60 s. At 1:00 its beat is still on its way when B's\ndequeue finds a heartbeat 61 s old and picks the job too: one job, run by A and B at once.",
  // retry_timer = 60 s, as in the report's steps to reproduce.
  leaseSeconds: 60,
  // Before PR #431 a running job beat once per retry_timer.
  heartbeatSeconds: 60,
  workSteps: 2,
  defaultStrategy: 'pgqueuer',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+30', 'A', '+31', 'B', 'B', 'B', '+4', 'A', 'A', 'B', 'B'],
  concepts: ['lease', 'heartbeat'],
  incident: {
    queue: 'pgqueuer',
    source: 'janbjorge/pgqueuer#430',
    url: 'https://github.com/janbjorge/pgqueuer/issues/430',
    whatUsersSaw:
      'With retry_timer set to 60 s, a job running for minutes had its heartbeat updated once a minute or less often, and was picked up again while it was still running.',
    rootCause:
      "Heartbeat cadence: the dequeue re-picks a job whose heartbeat is older than retry_timer, and the job's beat went out once per retry_timer, then waited in a buffer before it was written. A beat no more often than the timeout always arrives too late for some poll.",
    inTheLab:
      "retry_timer is the lease and the beat interval the heartbeat. The buffer's delay is B's poll at 1:01 coming before A's step: A's beat, due at 1:00, is written at 1:05, after B has picked the job. The buffer, the log table and entrypoints are left out.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'pgqueuer',
      fencing: false,
      scenarioId: 'pgqueuer-pr-431',
      inWords: "pgqueuer's own fix (PR #431): a beat every half retry_timer, so the heartbeat B's dequeue reads is at most 31 s old",
    },
  },
});
