import { defineScenario } from './define';

/**
 * hangfire-postgres/Hangfire.PostgreSql #352: in the thread of a report about re-queueing, a job that ran past
 * the 30-minute invisibility timeout was fetched and started again at 01:30:03, half an hour after its first
 * start at 01:00:03. The code it
 * follows: hangfire-postgres/Hangfire.PostgreSql@fbb8e2a:src/Hangfire.PostgreSql/PostgreSqlJobQueue.cs (the
 * fetch, unchanged at 942fccb) and PostgreSqlFetchedJob.cs (no refresh of fetchedat before PR #353).
 */
export const incidentHangfire352 = defineScenario({
  id: 'incident-hangfire-352',
  title: 'Hangfire.PostgreSql #352: a job outran its invisibility timeout and ran twice',
  summary:
    "A fetches run 123, a job longer than the 30-minute invisibility timeout, and nothing refreshes its fetchedat.\nAt 30:01 B's fetch finds the entry invisible no more and starts the job again while A still runs it.",
  // InvisibilityTimeout's default, 30 minutes: the report's second start came exactly 30 minutes after the first.
  leaseSeconds: 30 * 60,
  // UseSlidingInvisibilityTimeout is off by default (and did not exist before PR #353): no refresh.
  heartbeatSeconds: null,
  workSteps: 2,
  defaultStrategy: 'hangfire',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+1440', 'A', '+361', 'B', 'B', 'B', 'A', 'B'],
  concepts: ['lease', 'heartbeat'],
  incident: {
    queue: 'hangfire',
    source: 'hangfire-postgres/Hangfire.PostgreSql#352',
    url: 'https://github.com/hangfire-postgres/Hangfire.PostgreSql/issues/352',
    whatUsersSaw:
      'Reported as a job not re-queued after a pod restart; its records showed it started at 01:00:03 and again at 01:30:03, two instances running at once, which a maintainer put down to the 30-minute InvisibilityTimeout.',
    rootCause:
      'Heartbeat cadence: Hangfire.PostgreSql treats a fetched job as abandoned once its fetchedat is older than InvisibilityTimeout, and nothing refreshed fetchedat while the job ran: no beat at all against a timeout shorter than the job.',
    inTheLab:
      "InvisibilityTimeout is the lease; the job longer than 30 minutes is two model calls, the second at 24:00. Hangfire's state changes are folded into the fetch and the completion; the cancellation token that would tell A's job, if it checked it, that another worker took the job is left out.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'hangfire',
      fencing: false,
      scenarioId: 'hangfire-pr-353',
      inWords:
        "the sliding invisibility timeout Hangfire.PostgreSql added a month later (PR #353, for issue #209; UseSlidingInvisibilityTimeout): A refreshes fetchedat every 6 minutes, so B's fetch at 30:01 finds nothing",
    },
  },
});
