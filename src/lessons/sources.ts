/**
 * Every link the lesson cites. Repository links are pinned to the commits the research read
 * (RESEARCH.md), so the line a learner lands on is the one the lesson describes.
 */
import type { Source } from './types';

const LIST: Source[] = [
  // Production Postgres queues.
  { id: 'graphile-getjobs', label: 'graphile-worker: getJobs.ts (the claim)', url: 'https://github.com/graphile/worker/blob/abfb4cf/src/sql/getJobs.ts' },
  {
    id: 'graphile-169',
    label: 'graphile/worker #169: a 6-hour job ran twice under the 4-hour lock rule',
    url: 'https://github.com/graphile/worker/issues/169',
  },
  { id: 'pgboss-plans', label: 'pg-boss: plans.ts (fetch, expire, heartbeat)', url: 'https://github.com/timgit/pg-boss/blob/55ee32f/src/plans.ts' },
  { id: 'pgboss-555', label: 'timgit/pg-boss #555: an expired job kept running while its retry started', url: 'https://github.com/timgit/pg-boss/issues/555' },
  {
    id: 'river-job-sql',
    label: 'River: river_job.sql (claim, rescue, cancel)',
    url: 'https://github.com/riverqueue/river/blob/fdf6cdf/riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql',
  },
  { id: 'river-682', label: 'riverqueue/river #682: a request for job heartbeats', url: 'https://github.com/riverqueue/river/issues/682' },
  {
    id: 'river-1302',
    label: 'riverqueue/river #1302: the rescuer could overwrite a job that had just completed',
    url: 'https://github.com/riverqueue/river/issues/1302',
  },
  {
    id: 'river-1373',
    label: 'riverqueue/river PR #1373: the fix re-checks state and attempt in the write',
    url: 'https://github.com/riverqueue/river/pull/1373',
  },
  {
    id: 'oban-basic',
    label: 'Oban: engines/basic.ex (claim in a CTE, with a comment on why)',
    url: 'https://github.com/oban-bg/oban/blob/2939e31/lib/oban/engines/basic.ex',
  },
  { id: 'oban-lifeline', label: 'Oban: lifeline.ex (time-based rescue)', url: 'https://github.com/oban-bg/oban/blob/2939e31/lib/oban/lifeline.ex' },
  {
    id: 'hexpm-1825',
    label: "hexpm/hexpm PR #1825: a stats job longer than Oban's rescue_after ran two or three times a night",
    url: 'https://github.com/hexpm/hexpm/pull/1825',
  },
  { id: 'solid-queue', label: 'Solid Queue (rails/solid_queue)', url: 'https://github.com/rails/solid_queue/tree/29e818d' },
  {
    id: 'solid-queue-589',
    label: 'rails/solid_queue #589: finished jobs also marked failed by the pruner',
    url: 'https://github.com/rails/solid_queue/issues/589',
  },
  {
    id: 'procrastinate-schema',
    label: 'procrastinate: schema.sql (fetch, abort_requested)',
    url: 'https://github.com/procrastinate-org/procrastinate/blob/f099a75/procrastinate/sql/schema.sql',
  },
  {
    id: 'procrastinate-1518',
    label: 'procrastinate #1518: jobs stuck in doing forever',
    url: 'https://github.com/procrastinate-org/procrastinate/issues/1518',
  },
  { id: 'pgqueuer-qb', label: 'pgqueuer: qb.py (dequeue, heartbeat, completion)', url: 'https://github.com/janbjorge/pgqueuer/blob/0aa3dde/pgqueuer/qb.py' },
  {
    id: 'pgqueuer-430',
    label: 'janbjorge/pgqueuer #430: a job was picked up again while it was still running',
    url: 'https://github.com/janbjorge/pgqueuer/issues/430',
  },
  {
    id: 'pgqueuer-431',
    label: 'janbjorge/pgqueuer PR #431: the fix sends beats twice as often as retry_timer',
    url: 'https://github.com/janbjorge/pgqueuer/pull/431',
  },
  {
    id: 'hangfire-postgresql-queue',
    label: 'Hangfire.PostgreSql: PostgreSqlJobQueue.cs (the fetch and its invisibility timeout)',
    url: 'https://github.com/hangfire-postgres/Hangfire.PostgreSql/blob/942fccb/src/Hangfire.PostgreSql/PostgreSqlJobQueue.cs',
  },
  {
    id: 'hangfire-postgresql-352',
    label: 'hangfire-postgres/Hangfire.PostgreSql #352: a second instance of a running job started 30 minutes after the first',
    url: 'https://github.com/hangfire-postgres/Hangfire.PostgreSql/issues/352',
  },
  {
    id: 'hangfire-postgresql-353',
    label: 'hangfire-postgres/Hangfire.PostgreSql PR #353: a sliding invisibility timeout refreshes fetchedat while a job runs',
    url: 'https://github.com/hangfire-postgres/Hangfire.PostgreSql/pull/353',
  },
  {
    id: 'delayed-job-active-record',
    label: 'delayed_job_active_record: active_record.rb (the reserve and its name clause)',
    url: 'https://github.com/collectiveidea/delayed_job_active_record/blob/e5b4fbf/lib/delayed/backend/active_record.rb',
  },
  {
    id: 'delayed-job-1045',
    label: 'collectiveidea/delayed_job #1045: every worker in ECS containers had the same name',
    url: 'https://github.com/collectiveidea/delayed_job/issues/1045',
  },
  {
    id: 'good-job-989',
    label: 'bensheldon/good_job #989: a lost advisory lock let a second execution start',
    url: 'https://github.com/bensheldon/good_job/issues/989',
  },
  // PostgreSQL.
  {
    id: 'pg-bug-15715',
    label: 'PostgreSQL BUG #15715: a locking LIMIT sub-SELECT inside UPDATE … IN (…) can update more rows than LIMIT',
    url: 'https://www.postgresql.org/search/?m=1&q=BUG+%2315715',
  },
  {
    id: 'pg-select-locking',
    label: 'PostgreSQL docs: SELECT, the locking clause (FOR UPDATE, NOWAIT, SKIP LOCKED)',
    url: 'https://www.postgresql.org/docs/current/sql-select.html#SQL-FOR-UPDATE-SHARE',
  },
  {
    id: 'pg-explicit-locking',
    label: 'PostgreSQL docs: explicit locking, row-level locks',
    url: 'https://www.postgresql.org/docs/current/explicit-locking.html#LOCKING-ROWS',
  },
  // Temporal.
  {
    id: 'temporal-started',
    label: 'Temporal server: recording an activity start atomically',
    url: 'https://github.com/temporalio/temporal/blob/6805cae/service/history/api/recordactivitytaskstarted/api.go',
  },
  {
    id: 'temporal-failures',
    label: 'Temporal docs: Detecting Activity failures (timeouts, heartbeats)',
    url: 'https://docs.temporal.io/encyclopedia/detecting-activity-failures',
  },
  {
    id: 'temporal-worker-performance',
    label: 'Temporal docs: Worker performance (slots, rate limits)',
    url: 'https://docs.temporal.io/develop/worker-performance',
  },
  { id: 'temporal-fairness', label: 'Temporal docs: Task Queue Priority and Fairness', url: 'https://docs.temporal.io/develop/task-queue-priority-fairness' },
  { id: 'temporal-ai-cookbook', label: "Temporal's AI cookbook", url: 'https://github.com/temporalio/ai-cookbook' },
  {
    id: 'temporal-sdk-java-2903',
    label: 'temporalio/sdk-java PR #2903: no heartbeats during shutdown led to a duplicate execution',
    url: 'https://github.com/temporalio/sdk-java/pull/2903',
  },
  // Background reading.
  {
    id: 'kleppmann-locking',
    label: 'Martin Kleppmann, "How to do distributed locking" (fencing tokens)',
    url: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html',
  },
];

export const SOURCES: ReadonlyMap<string, Source> = new Map(LIST.map((source) => [source.id, source]));

export function findSource(id: string): Source | undefined {
  return SOURCES.get(id);
}
