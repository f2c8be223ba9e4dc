/**
 * The side-by-side comparison: one row per production queue (and the lab's atomic claim with fencing),
 * one column per question the module asks. Every cell is a short text and a place in the lab that shows
 * it. The text is taken, in this order, from the queue's definition (src/strategies/<queue>/definition.ts),
 * from a line below (RESEARCH.md §A/§E, only where nothing else says it), or from the concept table's entry
 * for that queue (concepts.ts; for the lab's row, its note on the lab's SQL); the isolation level a claim runs at
 * from CLAIM_ISOLATION below, with the files of the queue's code that show it. An incident (src/scenarios/, with `incident`)
 * lands in its queue's row, in the column its anomaly answers (or QUESTION_OF_INCIDENT names), so a new incident
 * needs no line here.
 */
import { INCIDENT_SCENARIOS, findScenario, fixScenarioOf } from '../scenarios';
import type { AnomalyKind, Scenario, Strategy } from '../sim/types';
import { PGLITE_HAS_ONE_SESSION } from '../sim/isolation';
import { QUEUE_STRATEGY_IDS, type StrategyDefinition, strategyDefinition, type StrategyId } from '../strategies';
import { CONCEPTS } from './concepts';
import type { ConceptRow } from './types';

type QuestionId = 'ready' | 'isolation' | 'owner' | 'ownership-ends' | 'comes-back' | 'stale-write' | 'cancel' | 'limits';

/** Where a cell's link goes: a scenario in the race lab under a strategy and fencing, or the backpressure lab. */
export type ComparisonTarget = { kind: 'scenario'; scenarioId: string; strategy: StrategyId; fencing: boolean } | { kind: 'backpressure' };

export interface ComparisonQuestion {
  id: QuestionId;
  /** The column's heading: the question. */
  heading: string;
  /** The scenario that answers it for every row, unless an incident of that queue answers it instead. */
  scenarioId: string | 'backpressure';
  /** What the link plays, in one sentence (shown under the table). */
  plays: string;
  /** Which queue fact answers it, if the definitions carry one. */
  fact?: keyof Pick<NonNullable<StrategyDefinition['queue']>, 'ownershipEnds' | 'completionGuard'>;
  /** The concept table's rows whose per-queue entries answer it, first match wins. */
  concepts: readonly ConceptRow['id'][];
}

export const COMPARISON_QUESTIONS: readonly ComparisonQuestion[] = [
  {
    id: 'ready',
    heading: 'Which runs are ready?',
    scenarioId: 'race',
    plays: 'the race: two workers poll at once; see which run each one gets',
    concepts: ['claim'],
  },
  {
    id: 'isolation',
    heading: 'At which isolation level does the claim run?',
    scenarioId: 'race',
    plays:
      "the race under that row's claim at READ COMMITTED, the level every row claims at and the only one the page can run; on a real server the command line runs it at the others too (npm run sim -- run race --strategy STRATEGY --isolation repeatable-read|serializable --db postgres://…): each claim in BEGIN ISOLATION LEVEL …, and a worker that gets 40001 rolls back and claims again",
    concepts: [],
  },
  {
    id: 'owner',
    heading: 'Who owns each?',
    scenarioId: 'three-workers',
    plays: 'three workers: each worker card shows what it believes it owns beside what the row says',
    concepts: [],
  },
  {
    id: 'ownership-ends',
    heading: 'When does ownership end?',
    scenarioId: 'heartbeat',
    plays: "heartbeat: a long run whose owner keeps heartbeating; see whether the claim's heartbeat keeps it",
    fact: 'ownershipEnds',
    concepts: ['lease-expiry'],
  },
  {
    id: 'comes-back',
    heading: 'How does an abandoned run come back?',
    scenarioId: 'crash-orphan',
    plays: 'crash-orphan: A crashes holding a run; after its lease the run is claimed again',
    concepts: ['orphan-reclaim', 'lease-expiry'],
  },
  {
    id: 'stale-write',
    heading: 'What stops a stale write?',
    scenarioId: 'paused-worker',
    plays: "paused-worker: A wakes after its run was taken and writes anyway; see what the completion's guard lets through",
    fact: 'completionGuard',
    concepts: ['fencing'],
  },
  {
    id: 'cancel',
    heading: 'How does cancel travel?',
    scenarioId: 'cancel-durable',
    plays:
      "cancel-durable: an operator's cancel request stored in the row, which the owner reads at its next write (the lab's cancel, played with that queue's claim and guard)",
    concepts: ['cancellation'],
  },
  {
    id: 'limits',
    heading: 'Which limits?',
    scenarioId: 'backpressure',
    plays: "the backpressure lab: the lab's own limits (per tenant, on model calls, on cost) enforced in its SQL; no queue's limits are modelled",
    concepts: ['backpressure'],
  },
];

/** The question an incident's anomaly answers: a new anomaly kind must be placed here. */
const QUESTION_OF_ANOMALY: Record<AnomalyKind, QuestionId> = {
  'double-claim': 'ready',
  'duplicate-execution': 'ownership-ends',
  'stuck-while-heartbeating': 'ownership-ends',
  'stranded-run': 'comes-back',
  'split-ownership': 'stale-write',
  'stale-write-rejected': 'stale-write',
  'finalized-twice': 'stale-write',
  'lost-cancel': 'cancel',
  'tenant-over-cap': 'limits',
};

/**
 * What neither a definition nor the concept table says, per row and question (RESEARCH.md §A and §E, at
 * the commits the definitions cite). The lab's row answers from its own SQL.
 */
const OWN_WORDS: Partial<Record<Strategy, Partial<Record<QuestionId, string>>>> = {
  'graphile-worker': {
    owner: 'locked_by (the worker pool) and locked_at.',
    cancel: 'An AbortSignal given to the task when the worker shuts down.',
    limits: 'concurrentJobs per process; a named queue runs its jobs one at a time.',
  },
  'pg-boss': {
    ready: "A CTE takes state < 'active' jobs whose start_after has come, FOR UPDATE OF j SKIP LOCKED, then sets state = 'active'.",
    owner: "No owner: the claim sets state = 'active' and started_on, and no write checks who runs the job.",
    cancel: 'cancel() in the database, and an AbortSignal passed to the handler.',
  },
  river: {
    owner: 'attempted_by (each attempt appends its client) and attempted_at, set by the claim.',
    limits: 'MaxWorkers per queue.',
  },
  oban: {
    owner: 'attempted_by and attempted_at, set by the claim.',
  },
  'solid-queue': {
    ready: 'Ready executions taken FOR UPDATE SKIP LOCKED (non_blocking_lock); a claimed execution is inserted and the ready row deleted, in one transaction.',
    owner: 'A claimed_executions row naming the process.',
    cancel: 'A job in progress cannot be discarded.',
  },
  procrastinate: {
    ready: "procrastinate_fetch_job_v2: status = 'todo' with no job of the same lock doing, FOR UPDATE OF jobs SKIP LOCKED, then status = 'doing'.",
    owner: 'worker_id on the job, a row in the workers table.',
    limits: 'lock (one job at a time per key) and queueing_lock (one queued job per key).',
  },
  pgqueuer: {
    ready:
      "build_dequeue_query: queued jobs whose execute_after has come, and picked jobs whose heartbeat is older than retry_timer, each FOR UPDATE SKIP LOCKED, then status = 'picked'.",
    owner: 'queue_manager_id on the job, set by the dequeue; no write checks it.',
    'comes-back': "The next dequeue: a picked job whose heartbeat is older than its entrypoint's retry_timer is picked again (retry_timer 0, no retry).",
    cancel:
      "mark_job_as_cancelled moves the job from the queue to the log as canceled and sends a cancellation NOTIFY, which cancels the running job's context.",
    limits: 'concurrency_limit and serialized_dispatch per entrypoint, checked inside the dequeue; requests_per_second; max_concurrent_tasks per manager.',
  },
  hangfire: {
    ready:
      'Dequeue_Transaction: an UPDATE sets fetchedat = now() on the queue entry a sub-select takes FOR UPDATE SKIP LOCKED, one never fetched or fetched longer ago than InvisibilityTimeout.',
    owner: "No owner on the queue entry, only fetchedat; the job's Processing state names the server and worker.",
    'comes-back':
      'The next fetch: an entry whose fetchedat is older than InvisibilityTimeout (30 minutes by default) is fetched again; a worker that stops cleanly requeues its job at once.',
    cancel: 'Deleting the job changes its state; the running job learns it through its cancellation token, if it checks it.',
    limits: 'WorkerCount per server, and queues; DisableConcurrentExecution takes a distributed lock per job method.',
  },
  'delayed-job': {
    ready:
      "ready_to_run: jobs whose run_at has come, unlocked or locked longer ago than max_run_time, or locked under the worker's own name, and not failed; by priority, run_at, the first FOR UPDATE SKIP LOCKED, then locked_at and locked_by set.",
    owner:
      'locked_by on the job: the worker\'s name, by default "host:<hostname> pid:<pid>". The reserve takes back any job locked under that name at once, so two live workers with one name each take the other\'s jobs.',
    'comes-back':
      "The next reserve: a job locked longer ago than max_run_time (4 hours by default) is ready again; one locked under the reserving worker's name, at once.",
    cancel: 'No cancel: deleting the job row removes it from the queue; a worker already running it finishes it.',
    limits: 'Worker processes and their queues; min_priority and max_priority per worker. No per-job or per-key limit.',
  },
  dbos: {
    ready:
      "startQueuedWorkflows: a queue's ENQUEUED workflows of the application's version, by priority and created_at, FOR UPDATE SKIP LOCKED (NOWAIT under a global concurrency limit), then each set to PENDING under the process's executor id, in one transaction.",
    owner:
      "executor_id on the workflow: the process's executor id, which is not unique to a process: 'local' unless DBOS__VMID sets one, and a restarted process keeps it.",
    'comes-back':
      "A recovery of its executor id: at launch a process runs again, itself, the PENDING workflows of its own executor id created no later than an instant it read at launch (a queued one goes back to ENQUEUED); Conductor or the admin server can recover another executor id's.",
    cancel:
      "cancelWorkflow writes CANCELLED on the workflow's row; the running workflow stops at its next step, and its outcome write never overwrites CANCELLED.",
    limits:
      "Per queue: worker concurrency (per process, in memory), a global concurrency and a rate limit checked inside the dequeue's transaction; priorities and partitions.",
  },
  'skip-locked': {
    ready: 'A pending run, or a running one whose lease_expires_at has passed, FOR UPDATE SKIP LOCKED: a row another claim has locked is passed over.',
    owner: 'lease_owner on the row, and lease_generation: each claim raises it, and the worker keeps the one it got.',
    'ownership-ends': 'The lease: lease_expires_at = now() + the lease length, pushed forward by every heartbeat of the current owner and generation.',
  },
};

interface ClaimIsolation {
  text: string;
  /** The files, at the commit the queue's definition cites, whose code shows it. */
  readIn: readonly string[];
}

/**
 * At which isolation level each row's claim runs. Every queue but Hangfire.PostgreSql and DBOS Transact sends
 * its claim as one statement or inside a plain BEGIN, so it runs at the connection's default_transaction_isolation,
 * READ COMMITTED unless the server, role or connection settings raise it; Hangfire.PostgreSql names READ
 * COMMITTED in its BeginTransaction, and DBOS Transact names REPEATABLE READ for a queue with a global limit.
 */
const CLAIM_ISOLATION: Partial<Record<Strategy, ClaimIsolation>> = {
  'graphile-worker': {
    text: "READ COMMITTED, the server's default: the claim is one statement sent with no BEGIN and no level, so it runs at the connection's default_transaction_isolation. Where that is raised to SERIALIZABLE, withRetries retries the claim's 40001.",
    readIn: ['src/sql/getJobs.ts', 'src/lib.ts', 'RELEASE_NOTES.md'],
  },
  'pg-boss': {
    text: "READ COMMITTED, the server's default: fetchNextJob is one statement on pg-boss's pool (or on a db the caller passes), sent with no BEGIN and no level. Its docs prefer SERIALIZABLE only for the noSkipLocked claim (for CockroachDB, SERIALIZABLE by default); at READ COMMITTED the UPDATE's state < 'active' re-check still stops a second claim.",
    readIn: ['src/manager.ts', 'src/plans.ts', 'docs/database-backends.md'],
  },
  river: {
    text: "READ COMMITTED, the server's default: JobGetAvailable is one statement on the pool, outside any transaction, and names no level; a default_transaction_isolation set on the server, the role or the pool's connections would change it.",
    readIn: ['producer.go', 'riverdriver/riverpgxv5/river_pgx_v5_driver.go', 'riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql'],
  },
  oban: {
    text: "READ COMMITTED, the server's default: fetch_jobs runs its one UPDATE inside Repo.transaction, Ecto's BEGIN with no level, and retries a serialization failure (40001) as an expected error. The repo's connection parameters (default_transaction_isolation) could change the level.",
    readIn: ['lib/oban/engines/basic.ex', 'lib/oban/repo.ex', 'lib/oban/errors.ex'],
  },
  'solid-queue': {
    text: "READ COMMITTED, the server's default: select_and_lock runs the SKIP LOCKED select, the claimed execution's insert and the ready row's delete in one ActiveRecord transaction with no isolation: option; database.yml's variables (default_transaction_isolation) could change it.",
    readIn: ['app/models/solid_queue/ready_execution.rb', 'app/models/solid_queue/claimed_execution.rb'],
  },
  procrastinate: {
    text: "READ COMMITTED, the server's default: procrastinate_fetch_job_v2 is one call in psycopg's implicit transaction, committed when the pooled connection goes back; psycopg's isolation_level, left unset, keeps the server's, and the SQL function sets none.",
    readIn: ['procrastinate/manager.py', 'procrastinate/psycopg_connector.py', 'procrastinate/sql/queries.sql', 'procrastinate/sql/schema.sql'],
  },
  pgqueuer: {
    text: "READ COMMITTED, the server's default: build_dequeue_query is one statement sent with the asyncpg pool's fetch, outside any transaction and naming no level; a default_transaction_isolation set on the server, the role or the connection would change it.",
    readIn: ['pgqueuer/queries.py', 'pgqueuer/db.py', 'pgqueuer/qb.py'],
  },
  'delayed-job': {
    text: "READ COMMITTED, the server's default: reserve_with_scope_using_optimized_postgres is one UPDATE sent with find_by_sql, outside any transaction (Delayed::Job.reserve opens none), naming no level; a default_transaction_isolation set on the server, the role or the connection would change it.",
    readIn: ['lib/delayed/backend/active_record.rb'],
  },
  hangfire: {
    text: "READ COMMITTED, named: with UseNativeDatabaseTransactions (on by default) Dequeue_Transaction runs the fetch in BeginTransaction(IsolationLevel.ReadCommitted), whatever the server's default; without it, a plain SELECT then an UPDATE checked by updatecount, each on its own.",
    readIn: ['src/Hangfire.PostgreSql/PostgreSqlJobQueue.cs', 'src/Hangfire.PostgreSql/PostgreSqlStorageOptions.cs'],
  },
  dbos: {
    text: "READ COMMITTED, the connection's default, for a queue with no global limit: startQueuedWorkflows turns autocommit off and runs its SKIP LOCKED select and an UPDATE per workflow in one transaction, naming no level. A queue with a global concurrency or rate limit sets REPEATABLE READ (setTransactionIsolation), and under a concurrency limit its select takes FOR UPDATE NOWAIT instead; the lab plays the first.",
    readIn: ['transact/src/main/java/dev/dbos/transact/database/dao/QueuesDAO.java'],
  },
  'skip-locked': {
    text: `READ COMMITTED in the page: ${PGLITE_HAS_ONE_SESSION}. On a real server (--db postgres://…) the command line also runs each claim in BEGIN ISOLATION LEVEL REPEATABLE READ or SERIALIZABLE, and a worker that gets 40001 rolls back and claims again.`,
    readIn: [],
  },
};

/**
 * Queues whose guard today is the one their definition plays with fencing on (its `fencingSwitch`): Solid
 * Queue's claimed-execution guard since v1.5.0. Their rows open with fencing on; their incidents still open
 * under the old guard, fencing off.
 */
const GUARD_TODAY_IS_FENCED: readonly Strategy[] = ['solid-queue'];

/** The lab's claim the comparison holds the queues against: the atomic claim, with fencing on. */
const LAB_ROW: Strategy = 'skip-locked';

export interface ComparisonLink {
  target: ComparisonTarget;
  /** The link's words: the scenario, or the incident, it opens. */
  label: string;
}

interface ComparisonIncident {
  /** owner/repo#number, as the incident names itself. */
  source: string;
  url: string;
  open: ComparisonLink;
  /** The fix in the lab: the incident under its fix's setting, or the scenario that fixes it (`fix.scenarioId`). */
  fix: ComparisonLink;
  fixInWords: string;
}

export interface ComparisonCell {
  question: QuestionId;
  text: string;
  /** Where the text comes from (the definition's file, the concept table, or this module). */
  from: 'definition' | 'concepts' | 'comparison';
  /** Files of the queue's code that show it, at the row's source (so `${row.source}:${path}` cites one); empty where the definition's files already do. */
  readIn: readonly string[];
  link: ComparisonLink;
  /** The queue's public incidents whose anomaly answers this question, replayed. */
  incidents: ComparisonIncident[];
}

export interface ComparisonRow {
  strategy: StrategyId;
  /** The queue's name, or the lab's claim's. */
  name: string;
  /** owner/repo@commit the row's facts hold for; null for the lab's own claim. */
  source: string | null;
  /** The fencing its links open with: the queue's guard today (off, except Solid Queue's), the lab's claim with its fence (on). */
  fencing: boolean;
  cells: ComparisonCell[];
}

function conceptText(question: ComparisonQuestion, name: string | null): string | undefined {
  for (const id of question.concepts) {
    const concept = CONCEPTS.find((row) => row.id === id);
    if (!concept) continue;
    if (name === null) return concept.labNote;
    const entry = concept.queues.find((queue) => queue.system === name);
    if (entry) return entry.how;
  }
  return undefined;
}

function cellText(strategy: Strategy, question: ComparisonQuestion): Pick<ComparisonCell, 'text' | 'from' | 'readIn'> {
  const facts = strategyDefinition(strategy).queue;
  if (question.id === 'isolation') {
    const isolation = CLAIM_ISOLATION[strategy];
    if (!isolation) throw new Error(`The comparison does not say at which isolation level ${strategy} claims: add it to CLAIM_ISOLATION.`);
    if (!facts && isolation.readIn.length > 0) throw new Error(`${strategy} is no production queue: its isolation level has no queue code to read`);
    return { text: isolation.text, from: 'comparison', readIn: isolation.readIn };
  }
  const own = OWN_WORDS[strategy]?.[question.id];
  if (facts && question.fact) return { text: facts[question.fact], from: 'definition', readIn: [] };
  if (own !== undefined) return { text: own, from: 'comparison', readIn: [] };
  const fromConcepts = conceptText(question, facts ? facts.name : null);
  if (fromConcepts !== undefined) return { text: fromConcepts, from: 'concepts', readIn: [] };
  throw new Error(`The comparison has no words for ${strategy} × ${question.id}: add them to OWN_WORDS.`);
}

function scenarioLink(scenario: Scenario, strategy: StrategyId, fencing: boolean): ComparisonLink {
  return { target: { kind: 'scenario', scenarioId: scenario.id, strategy, fencing }, label: scenario.title };
}

function scenarioNamed(id: string): Scenario {
  const scenario = findScenario(id);
  if (!scenario) throw new Error(`The comparison names a scenario the lab does not have: ${id}`);
  return scenario;
}

/**
 * An incident whose anomaly points at another question than its cause: one line each, by scenario id.
 * River #1302 ends in duplicate execution, but what it teaches is the rescuer's own write, by id alone.
 */
const QUESTION_OF_INCIDENT: Readonly<Record<string, QuestionId>> = {
  'incident-river-1302': 'stale-write',
  // Duplicate execution, but what it teaches is who the row says owns the job: a name two live workers share.
  'incident-delayed-job-1045': 'owner',
  // Duplicate execution, but what it teaches is how an abandoned workflow comes back: a recovery that took live work.
  'incident-dbos-491': 'comes-back',
};

function incidentsOf(strategy: Strategy, question: QuestionId): ComparisonIncident[] {
  return INCIDENT_SCENARIOS.flatMap((scenario) => {
    const incident = scenario.incident;
    if (!incident || incident.queue !== strategy || (QUESTION_OF_INCIDENT[scenario.id] ?? QUESTION_OF_ANOMALY[incident.anomaly]) !== question) return [];
    return [
      {
        source: incident.source,
        url: incident.url,
        open: scenarioLink(scenario, incident.queue, false),
        fix: { ...scenarioLink(fixScenarioOf(scenario), incident.fix.strategy, incident.fix.fencing), label: `The fix: ${incident.fix.inWords}` },
        fixInWords: incident.fix.inWords,
      },
    ];
  });
}

function row(strategy: StrategyId): ComparisonRow {
  const definition = strategyDefinition(strategy);
  const fencing = definition.queue === undefined || GUARD_TODAY_IS_FENCED.includes(strategy);
  const cells = COMPARISON_QUESTIONS.map((question): ComparisonCell => {
    const link: ComparisonLink =
      question.scenarioId === 'backpressure'
        ? { target: { kind: 'backpressure' }, label: 'The backpressure lab' }
        : scenarioLink(scenarioNamed(question.scenarioId), strategy, fencing);
    return { question: question.id, ...cellText(strategy, question), link, incidents: incidentsOf(strategy, question.id) };
  });
  return {
    strategy,
    name: definition.queue?.name ?? `This lab: ${definition.label.replace(/^A/, 'a')} with fencing`,
    source: definition.queue?.source ?? null,
    fencing,
    cells,
  };
}

/** Every production queue in the picker's order, then the lab's atomic claim with fencing. */
export const QUEUE_COMPARISON: readonly ComparisonRow[] = [...QUEUE_STRATEGY_IDS, LAB_ROW].map(row);
