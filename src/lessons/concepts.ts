/**
 * The concept table: each idea, the SQL in this lab that implements it, Temporal's equivalent, and how
 * production Postgres queues do it (facts from RESEARCH.md, with their sources).
 */
import { LAB_STRATEGY_IDS, type StrategyDefinition, strategyDefinition } from '../strategies';
import type { ConceptRow } from './types';

/** The lab's own claims (not the production queues', which the queue strategies bring, nor a limit's, under Backpressure). */
const LAB_CLAIMS: readonly StrategyDefinition[] = LAB_STRATEGY_IDS.map(strategyDefinition);

/** Every lab claim's statements: the atomic claims, then the two-step claims from compare-and-set back to the naive pair. */
const CLAIM_STATEMENT_IDS: string[] = [
  ...new Set([
    ...LAB_CLAIMS.flatMap((d) => (d.claim.shape === 'one-statement' ? [d.claim.claim.id] : [])),
    ...LAB_CLAIMS.toReversed().flatMap((d) => (d.claim.shape === 'select-then-update' ? [d.claim.update.id, d.claim.select.id] : [])),
  ]),
];

export const CONCEPTS: readonly ConceptRow[] = [
  {
    id: 'claim',
    name: 'Claim',
    meaning: 'An atomic state change that makes one worker the owner of a run.',
    labSql: CLAIM_STATEMENT_IDS,
    labNote: 'The atomic claim chooses and takes a run in one statement; compare-and-set and the naive pair show the steps on the way there.',
    temporal: 'A worker polls a task queue and the server records the activity start atomically; a second start of the same task gets TaskAlreadyStarted.',
    temporalSources: ['temporal-started'],
    queues: [
      { system: 'graphile-worker', how: 'A CTE with LIMIT n FOR UPDATE SKIP LOCKED, then sets locked_by and locked_at.', sources: ['graphile-getjobs'] },
      { system: 'River', how: "A CTE takes available jobs FOR UPDATE SKIP LOCKED, then sets state = 'running' and attempt + 1.", sources: ['river-job-sql'] },
      { system: 'Oban', how: "LIMIT demand FOR UPDATE SKIP LOCKED inside a materialized CTE, then state = 'executing'.", sources: ['oban-basic'] },
    ],
    chapterId: 'atomic-claim',
  },
  {
    id: 'lease',
    name: 'Lease',
    meaning: 'Ownership that ends at a set time unless it is renewed.',
    labSql: ['claim-skip-locked'],
    labNote: 'Every claim sets lease_expires_at = now() + the lease length.',
    temporal:
      'The Heartbeat Timeout is the renewable part: each heartbeat renews it, and an attempt that misses it is timed out and retried. Start-To-Close bounds one attempt as a whole; Schedule-To-Close bounds all attempts together.',
    temporalSources: ['temporal-failures'],
    queues: [
      { system: 'pg-boss', how: 'expireInSeconds per job, 15 minutes by default.', sources: ['pgboss-plans'] },
      { system: 'graphile-worker', how: 'locked_at with a fixed 4-hour limit (a 6-hour job ran twice: #169).', sources: ['graphile-getjobs', 'graphile-169'] },
      {
        system: 'River',
        how: 'No lease column: a job running longer than RescueStuckJobsAfter (1 hour by default) counts as stuck.',
        sources: ['river-job-sql'],
      },
    ],
    chapterId: 'lease',
  },
  {
    id: 'lease-expiry',
    name: 'Lease expiry',
    meaning: 'The moment ownership lapses; after it, any claim may take the run.',
    labSql: ['claim-skip-locked'],
    labNote: "The claim's second branch: status = 'running' AND lease_expires_at < now().",
    temporal: 'A server timer fires ActivityTaskTimedOut and schedules a retry with attempt + 1.',
    temporalSources: ['temporal-failures'],
    queues: [
      { system: 'pg-boss', how: 'A monitor fails jobs whose expiry has passed; the retry policy takes it from there.', sources: ['pgboss-plans'] },
      { system: 'graphile-worker', how: 'A job locked more than 4 hours ago is free to be claimed again.', sources: ['graphile-getjobs'] },
      {
        system: 'Oban',
        how: 'No expiry: Lifeline rescues executing jobs after rescue_after (60 minutes by default), purely by time.',
        sources: ['oban-lifeline'],
      },
    ],
    chapterId: 'lease',
  },
  {
    id: 'heartbeat',
    name: 'Heartbeat',
    meaning: 'A periodic write by the owner that renews its lease.',
    labSql: ['heartbeat-fenced', 'heartbeat-unfenced'],
    labNote: 'Sets heartbeat_at and pushes lease_expires_at forward, only for the current owner (and, fenced, its generation).',
    temporal:
      'activity.heartbeat(details) in Python, Context.current().heartbeat() in TypeScript, activity.RecordHeartbeat in Go, checked against a Heartbeat Timeout; the SDKs throttle heartbeats.',
    temporalSources: ['temporal-failures'],
    queues: [
      { system: 'pg-boss', how: 'heartbeatSeconds per job, off by default.', sources: ['pgboss-plans'] },
      { system: 'procrastinate', how: 'A worker heartbeat every 10 s; a worker is stalled after 30 s without one.', sources: ['procrastinate-schema'] },
      { system: 'River', how: 'None (issue #682 asks for it).', sources: ['river-682'] },
    ],
    chapterId: 'heartbeat',
  },
  {
    id: 'progress-vs-liveness',
    name: 'Progress vs liveness',
    meaning: 'A heartbeat shows the worker is alive; only changed business state shows it is getting somewhere.',
    labSql: ['work-fenced', 'heartbeat-fenced'],
    labNote: 'work-fenced.sql raises progress; heartbeats never touch it, and the lab flags stuck-while-heartbeating.',
    temporal:
      'Heartbeat details carry progress for the next attempt; the Heartbeat Timeout measures liveness; Start-To-Close still ends an attempt that heartbeats but never finishes.',
    temporalSources: ['temporal-failures'],
    queues: [
      { system: 'procrastinate', how: 'Heartbeats are per worker, so a live worker with a stuck job is not stalled.', sources: ['procrastinate-schema'] },
      { system: 'Solid Queue', how: 'Heartbeats are per process (every 60 s, dead after 5 minutes): the same blind spot.', sources: ['solid-queue'] },
      { system: 'Oban', how: 'No heartbeat: Lifeline judges by elapsed time only.', sources: ['oban-lifeline'] },
    ],
    chapterId: 'progress-vs-liveness',
  },
  {
    id: 'orphan-reclaim',
    name: 'Orphan reclaim',
    meaning: 'Unfinished work whose ownership has lapsed becomes claimable again, under a new generation.',
    labSql: ['claim-skip-locked'],
    labNote: 'No separate rescuer: the ordinary claim matches expired leases and raises lease_generation.',
    temporal: 'After a timeout the activity is retried as a new attempt, on any worker.',
    temporalSources: ['temporal-failures'],
    queues: [
      {
        system: 'River',
        how: 'A rescuer resets running jobs older than the horizon; the docs warn this can run a job twice (see #1302, fixed in PR #1373).',
        sources: ['river-job-sql', 'river-1302', 'river-1373'],
      },
      {
        system: 'procrastinate',
        how: 'Manual: you schedule get_stalled_jobs and retry_job yourself.',
        sources: ['procrastinate-schema', 'procrastinate-1518'],
      },
      {
        system: 'Solid Queue',
        how: 'The supervisor prunes dead processes and fails or releases their claimed executions.',
        sources: ['solid-queue', 'solid-queue-589'],
      },
    ],
    chapterId: 'orphan-reclaim',
  },
  {
    id: 'fencing',
    name: 'Fencing token',
    meaning: 'A number raised by every claim; authoritative writes must carry the current one.',
    labSql: ['claim-skip-locked', 'work-fenced', 'complete-fenced', 'heartbeat-fenced', 'cancel-ack-fenced'],
    labNote: 'lease_generation + 1 on claim; … AND lease_generation = $n on every write. The *-unfenced.sql files show the unguarded versions.',
    temporal: 'The task token carries the attempt number; a heartbeat or completion from a stale attempt is refused ("activity already timed out").',
    temporalSources: ['temporal-started'],
    queues: [
      { system: 'graphile-worker', how: 'Completes by job id only; failing a job checks locked_by.', sources: ['graphile-getjobs'] },
      { system: 'pg-boss', how: "Completion checks state = 'active' only: no owner or attempt.", sources: ['pgboss-plans'] },
      { system: 'Solid Queue', how: 'The claimed-execution row acts as the token: finishing does nothing once it is gone.', sources: ['solid-queue'] },
    ],
    chapterId: 'fencing',
  },
  {
    id: 'cancellation',
    name: 'Durable cancellation',
    meaning: 'A cancel is a stored request that the owner checks at safe points; killing a process is not a cancel.',
    labSql: ['cancel-request', 'cancel-ack-fenced'],
    labNote: 'cancel_requested = true in the row; every worker write returns it; the owner moves the run to cancelled.',
    temporal: 'CancelRequested is persisted and delivered in the reply to a heartbeat; an activity that never heartbeats cannot be cancelled mid-run.',
    temporalSources: ['temporal-failures', 'temporal-ai-cookbook'],
    queues: [
      { system: 'procrastinate', how: 'abort_requested is persisted; NOTIFY plus polling; the job asks should_abort().', sources: ['procrastinate-schema'] },
      { system: 'River', how: 'JobCancel locks the row, records the request and sends pg_notify.', sources: ['river-job-sql'] },
      { system: 'Oban', how: 'Marks the job cancelled and kills its process if it is executing on that node.', sources: ['oban-basic'] },
    ],
    chapterId: 'cancellation',
  },
  {
    id: 'backpressure',
    name: 'Backpressure',
    meaning: 'Limits that keep admitted work within what workers, model providers and the budget can take.',
    labSql: ['claim-tenant-cap'],
    labNote:
      "The backpressure lab, below the main lab, enforces every limit in its SQL: claims and model-call starts take turns on an advisory lock, count what is running, and take a slot only within the limits; a call that would pass a run's budget is never made. The main lab's per-tenant cap counts inside the claim with no such lock, and two claims at once break it (the scenario tenant-backlog).",
    temporal: 'Worker slots (max concurrent activities), MaxTaskQueueActivitiesPerSecond, priority and fairness keys.',
    temporalSources: ['temporal-worker-performance', 'temporal-fairness'],
    queues: [
      { system: 'Oban', how: 'A queue limit per node: 2 on three nodes runs 6 at once.', sources: ['oban-basic'] },
      { system: 'pg-boss', how: 'localConcurrency per worker; groupConcurrency enforced inside the fetch SQL.', sources: ['pgboss-plans'] },
      { system: 'Solid Queue', how: 'limits_concurrency with to:, key: and duration:.', sources: ['solid-queue'] },
    ],
    chapterId: 'backpressure',
  },
];
