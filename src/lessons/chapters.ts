/**
 * The guided path: one chapter per concept, each stepping through a scenario. A narration step that
 * talks about a moment on the timeline names it (`mark.tokenIndex`, with the schedule and settings it
 * belongs to) and says what the engine must show there (`mark.expect`); the unit tests replay every
 * mark on PGlite and check it, so the narration cannot drift from what the lab shows.
 */
import { PGLITE_HAS_ONE_SESSION } from '../sim/isolation';
import type { Settings } from '../sim/types';
import type { Chapter, ChapterId } from './types';

const NAIVE: Settings = { strategy: 'naive', fencing: false };
const CAS: Settings = { strategy: 'cas', fencing: false };
const ATOMIC: Settings = { strategy: 'skip-locked', fencing: true };
const ATOMIC_UNFENCED: Settings = { strategy: 'skip-locked', fencing: false };
const FOR_UPDATE: Settings = { strategy: 'for-update', fencing: true };
const NOWAIT: Settings = { strategy: 'nowait', fencing: true };
// The incidents open under each queue's own guard (fencing off); fencing on is the fix the chapter shows.
const GRAPHILE: Settings = { strategy: 'graphile-worker', fencing: false };
const OBAN: Settings = { strategy: 'oban', fencing: false };
const PG_BOSS: Settings = { strategy: 'pg-boss', fencing: false };
const PG_BOSS_FENCED: Settings = { strategy: 'pg-boss', fencing: true };
const SOLID_QUEUE: Settings = { strategy: 'solid-queue', fencing: false };
const SOLID_QUEUE_FIXED: Settings = { strategy: 'solid-queue', fencing: true };
/** incident-pg-boss-555's script up to B's write after A completed (B stops there, so a later B token has nothing to play). */
const PG_BOSS_555: string[] = ['A', 'A', 'A', '+600', 'A', '+301', 'rescue', 'B', 'B', 'B', 'A', 'A', 'B'];

/** The chapters as written, each id kept as its literal: ChapterId is the union of them (types.ts). */
function defineChapters<const Id extends string>(chapters: readonly Chapter<Id>[]): readonly Chapter<Id>[] {
  return chapters;
}

export const CHAPTERS = defineChapters([
  {
    id: 'race',
    title: 'The race',
    summary: 'Two workers poll at once and both run job 123.',
    scenarioId: 'race',
    settings: NAIVE,
    concepts: ['race', 'claim'],
    steps: [
      {
        id: 'questions',
        heading: 'What a scheduler has to answer',
        body: [
          'Checkpoints let an agent run carry on from where it stopped. They do not say who should carry it on. The moment two workers poll the same table, that question needs a real answer.',
          'Every job scheduler answers four questions, whatever product it is packaged in: which runs are ready to start; which worker owns each running run; when that ownership ends; and how a run whose worker has vanished becomes available again. This lesson builds each answer in SQL, on a real Postgres running inside your browser.',
          'Here two workers, A and B, look for work at the same moment. Runs 123 and 124 are pending, and 123 is older, so it is first in line.',
        ],
        mark: { tokenIndex: null },
      },
      {
        id: 'a-reads',
        heading: 'A finds run 123',
        body: ["A asks for the oldest pending run and gets 123. It has only read the row: nothing in the database says the run is A's yet."],
        mark: { tokenIndex: 0, expect: { actor: 'A', action: 'select', verdict: 'ok' } },
      },
      {
        id: 'b-reads',
        heading: 'B finds run 123 too',
        body: ['B asks the same question a moment later. A has not written anything, so B gets the same answer: run 123.'],
        mark: { tokenIndex: 1, expect: { actor: 'B', action: 'select', verdict: 'ok', runId: 123 } },
      },
      {
        id: 'both-claim',
        heading: 'Both claim it',
        body: [
          "A marks run 123 as its own (generation 18). B does the same right after (generation 19) and silently overwrites A's claim. Neither statement fails, and each worker now believes run 123 is its own.",
        ],
        mark: { tokenIndex: 3, expect: { actor: 'B', action: 'naive-update', verdict: 'ok', fact: 'overwrote' } },
      },
      {
        id: 'both-pay',
        heading: 'Both pay',
        body: [
          'Now each worker calls the model for run 123. By the end, four model calls are paid (160 cents at 40 cents a call) for a run that needed two, and the lab flags duplicate-execution. If the run sends emails or charges cards, the duplicates cost more than money.',
          'Before you step on, predict: with other run ids, another worker first, or another claim, which run does the second worker end up with?',
        ],
        mark: { tokenIndex: 5, expect: { actor: 'B', action: 'work', anomaly: 'duplicate-execution' } },
        predict: ['claim-race'],
      },
      {
        id: 'stop-it-early',
        heading: 'Stop duplicates at the claim',
        body: [
          'Idempotency keys (Module 04) can stop the second final write from doing harm. They cannot give back model calls and tool work that already ran twice. The cheap place to stop a duplicate is before any work starts: at the moment a worker takes ownership.',
        ],
        mark: { tokenIndex: 8, expect: { actor: 'A', action: 'complete' } },
      },
    ],
  },
  {
    id: 'select-then-update',
    title: 'Why SELECT then UPDATE is unsafe',
    summary: 'A race condition: right under one timing, wrong under another.',
    scenarioId: 'race',
    settings: NAIVE,
    concepts: ['race', 'claim'],
    steps: [
      {
        id: 'definition',
        heading: 'A race condition',
        body: [
          'A race condition is a bug whose appearance depends on the timing of concurrent operations: the same code is correct under one interleaving and wrong under another.',
          'The naive claim is two statements. First it reads which run is ready:',
        ],
        sql: {
          sqlId: 'naive-select',
          caption: 'src/sql/naive-select.sql: step one, read',
          clauses: [
            {
              match: "WHERE status = 'pending'",
              note: 'Reads which runs are ready. It locks nothing and changes nothing, so another worker running the same SELECT at the same time gets the same row.',
            },
          ],
        },
        mark: { tokenIndex: null },
      },
      {
        id: 'lucky',
        heading: 'Same code, lucky timing',
        body: [
          "In this interleaving A selects and updates before B looks. B's SELECT no longer sees 123 as pending, so it takes 124. No duplicate: the bug is still in the code, but this timing does not trigger it.",
        ],
        mark: {
          schedule: ['A', 'A', 'B', 'B', 'A', 'A', 'A', 'B', 'B', 'B'],
          tokenIndex: 2,
          expect: { actor: 'B', action: 'select', runId: 124 },
        },
      },
      {
        id: 'window',
        heading: 'The window',
        body: [
          "The danger lies between A's SELECT (step 1) and A's UPDATE (step 3). Each statement is atomic on its own; the pair is not. Any worker that reads inside that gap gets the same stale answer. The pattern is called check-then-act, or time-of-check to time-of-use.",
        ],
        mark: { tokenIndex: 1, expect: { actor: 'B', action: 'select' } },
      },
      {
        id: 'blind-update',
        heading: 'An UPDATE that trusts an old read',
        body: [
          'Making the window shorter (faster code, fewer round trips) makes the race rarer, never impossible. The next two chapters close it: first by checking again inside the UPDATE, then by making the read and the write a single statement.',
        ],
        sql: {
          sqlId: 'naive-update',
          caption: 'src/strategies/naive/naive-update.sql: step two, write',
          clauses: [
            {
              match: 'WHERE run_id = $1',
              note: "The UPDATE trusts the earlier read: it checks the id, not that the run is still pending. So B's UPDATE succeeds on a run A claimed a moment ago.",
            },
            {
              match: 'lease_generation = lease_generation + 1',
              note: "Each claim raises the generation, which is how the lab tells A's claim (18) from B's (19).",
            },
          ],
        },
        mark: { tokenIndex: 3, expect: { actor: 'B', action: 'naive-update', verdict: 'ok' } },
      },
    ],
  },
  {
    id: 'compare-and-set',
    title: 'Compare-and-set: the smallest fix',
    summary: 'Claim only if the run is still pending; the loser sees 0 rows.',
    scenarioId: 'race',
    settings: CAS,
    concepts: ['claim'],
    steps: [
      {
        id: 'guard',
        heading: 'Check again, inside the write',
        body: [
          "The smallest fix keeps the SELECT but makes the UPDATE conditional: set the run to running only if it is still pending. Postgres updates a row atomically. When two UPDATEs aim at the same row, the second waits for the first to finish, then re-evaluates its WHERE clause against the row as the first left it. That is READ COMMITTED, Postgres's default and the level every session of the lab runs at. At REPEATABLE READ or SERIALIZABLE a waiting UPDATE does not re-evaluate: once the first commits, it fails with SQLSTATE 40001 (could not serialize access due to concurrent update), and the claim must be retried. In the lab's races each statement is a transaction of its own and starts after the other has committed, so there the level changes nothing: the naive UPDATE still overwrites, and the compare-and-set still matches 0 rows.",
          `Above READ COMMITTED a claim's SELECT and UPDATE share one transaction, as production code writes them, and even the naive claim stops claiming a run twice: at REPEATABLE READ, B's UPDATE of the run its snapshot saw as pending fails 40001 (\`could not serialize access due to concurrent update\`) once A commits, or at once if A already has; B rolls back and claims again. SERIALIZABLE also catches write skew, which no row lock sees: two overlapping claims that each count a tenant's running runs below its limit and take different runs both commit at REPEATABLE READ, while at SERIALIZABLE the second COMMIT fails 40001 (\`could not serialize access due to read/write dependencies among transactions\`), and that worker rolls back, claims again and finds the tenant at its limit. Retries are the price: every claim SERIALIZABLE fails is work thrown away and done again, which is why production queues claim at READ COMMITTED, where SKIP LOCKED already keeps claims apart, and guard a limit with a lock or counter per key. This page cannot run either: ${PGLITE_HAS_ONE_SESSION}, so every claim it runs is at READ COMMITTED. The links below step through traces recorded on a real PostgreSQL server instead, the same way you step through the lab's. On a real server, run \`npm run sim -- run race --isolation repeatable-read --db postgres://…\`, or the specs in \`docs/examples/\` with \`npm run sim -- spec FILE --db postgres://…\`.`,
        ],
        sql: {
          sqlId: 'cas-claim',
          caption: 'src/strategies/cas/cas-claim.sql',
          clauses: [
            {
              match: "AND status = 'pending'",
              note: 'The compare: the write applies only if the row still looks the way the SELECT saw it. If another worker got there first, the UPDATE matches 0 rows.',
            },
          ],
        },
        recordings: [
          'race-naive-repeatable-read',
          'race-cas-repeatable-read',
          'three-workers-skip-locked-serializable',
          'tenant-cap-repeatable-read',
          'tenant-cap-serializable',
        ],
        predict: ['isolation-recorded', 'write-skew-recorded'],
        mark: { tokenIndex: null },
      },
      {
        id: 'a-wins',
        heading: 'A wins',
        body: ["A's conditional UPDATE finds run 123 still pending and claims it (generation 18)."],
        mark: { tokenIndex: 2, expect: { actor: 'A', action: 'cas-claim', verdict: 'ok' } },
      },
      {
        id: 'b-loses',
        heading: 'B loses, and knows it',
        body: [
          "B's UPDATE runs the same test, finds the run already running, and matches 0 rows. B learns it lost from the row count alone: no error, no exception, no duplicate.",
        ],
        mark: { tokenIndex: 3, expect: { actor: 'B', action: 'cas-claim', verdict: 'empty' } },
      },
      {
        id: 'b-retries',
        heading: 'B tries again',
        body: ['B goes back to its SELECT, finds run 124 and claims it. Every run has exactly one owner. Check your intuition with other parameters:'],
        mark: { tokenIndex: 7, expect: { actor: 'B', action: 'cas-claim', verdict: 'ok', runId: 124 } },
        predict: ['claim-race'],
      },
      {
        id: 'cost',
        heading: 'What compare-and-set costs',
        body: [
          'It is correct, but contention is wasteful: every worker reads the same oldest row, all but one lose, and each loser pays a round trip before it tries again. With twenty workers on a busy queue, most claims are wasted work.',
          "It also guards only what you remember to compare. Reclaiming an expired lease needs the same test in both the SELECT and the UPDATE. pg-boss, when it cannot use SKIP LOCKED, re-checks the job's state in its UPDATE in exactly this way.",
          'The next chapter chooses and claims in one statement, and lets a losing worker skip ahead instead of colliding.',
        ],
        sources: ['pgboss-plans'],
      },
    ],
  },
  {
    id: 'atomic-claim',
    title: 'The atomic claim, clause by clause',
    summary: 'One statement picks and takes a run: WITH … FOR UPDATE SKIP LOCKED.',
    scenarioId: 'three-workers',
    settings: ATOMIC,
    concepts: ['claim', 'atomic-claim'],
    steps: [
      {
        id: 'one-statement',
        heading: 'Choose and take in one statement',
        body: [
          'The atomic claim picks a run and takes it in a single statement, so no other worker can act between the choice and the write. Nothing in it is magic; here is what each clause does (select a clause to highlight its lines):',
        ],
        sql: {
          sqlId: 'claim-skip-locked',
          caption: 'src/strategies/skip-locked/claim-skip-locked.sql',
          clauses: [
            {
              match: 'WITH candidate AS (',
              note: 'A common table expression named candidate: the part that chooses. The UPDATE below touches only what it returns. Writing the choice as a WITH query, and not as WHERE run_id IN (SELECT … LIMIT 1 FOR UPDATE), matters: in PostgreSQL BUG #15715 Tom Lane pointed out that such a sub-select may be executed more than once by the planner, locking and updating more rows than LIMIT allows, whereas a WITH query is evaluated once. Oban goes further and marks its CTE MATERIALIZED.',
            },
            {
              match: "WHERE status = 'pending'",
              lines: 2,
              note: 'Which runs are ready: pending ones, and running ones whose lease has run out (lease_expires_at < now(): orphans). The strict < means a lease still counts at the very second it ends.',
            },
            { match: 'ORDER BY created_at', note: 'Oldest first, so runs are served roughly in the order they arrived.' },
            {
              match: 'LIMIT 1',
              note: 'One run per claim. Production queues often claim a batch (LIMIT n) to save round trips; Oban asks for as many jobs as its queue has free slots.',
            },
            {
              match: 'FOR UPDATE SKIP LOCKED',
              note: 'FOR UPDATE locks each row the SELECT returns, and the lock is held until the claiming transaction commits or rolls back, not merely until the statement ends. SKIP LOCKED decides what a second worker does when its scan meets a row someone else has locked: rather than waiting for that transaction (plain FOR UPDATE) or failing (NOWAIT), it leaves the row out and moves on to the next candidate.',
            },
            {
              match: 'SET status',
              lines: 5,
              note: 'The claim itself: the run becomes running, owned by this worker ($1), leased for $2 seconds from now, with a generation one higher than before. That generation is the fencing token of a later chapter.',
            },
            {
              match: 'WHERE run_id IN (SELECT run_id FROM candidate)',
              note: 'Update exactly the row the CTE chose and locked. Since this transaction already holds its lock, nobody can change it between the choice and the write.',
            },
            {
              match: 'RETURNING',
              note: 'Hand back which run was claimed and its new generation in the same round trip: no second read that could race.',
            },
          ],
        },
        sources: ['pg-bug-15715', 'oban-basic', 'pg-select-locking'],
        mark: { tokenIndex: null },
      },
      {
        id: 'a-locks',
        heading: 'A locks run 123',
        body: [
          "A's claim picks run 123, the oldest, and locks it. The lab keeps the claim transaction open as a step of its own so that you can see the lock: the step records A holding a row lock on run 123. In production the claim is one auto-committed statement and the lock lasts milliseconds; the logic is the same.",
        ],
        mark: { tokenIndex: 0, expect: { actor: 'A', action: 'claim', verdict: 'ok', runId: 123 } },
      },
      {
        id: 'b-skips',
        heading: 'B skips it',
        body: [
          'B runs the same statement while A still holds the lock. Its scan reaches 123, finds it locked, leaves it out and takes 124. No waiting, no error, no duplicate.',
        ],
        mark: { tokenIndex: 1, expect: { actor: 'B', action: 'claim', verdict: 'ok', runId: 124 } },
      },
      {
        id: 'c-skips',
        heading: 'C skips both',
        body: [
          'C passes over both locked rows and takes 125. Three workers, three runs, three owners, one step each. Try other orders, other ages and a run that is already leased:',
        ],
        mark: { tokenIndex: 2, expect: { actor: 'C', action: 'claim', verdict: 'ok', runId: 125 } },
        predict: ['claim-order'],
      },
      {
        id: 'commit',
        heading: 'The row takes over from the lock',
        body: [
          'When A commits, its row lock is released and the committed row says running, owned by A. From then on the row itself keeps others away: the WHERE clause no longer matches it until its lease expires.',
        ],
        mark: { tokenIndex: 3, expect: { actor: 'A', action: 'commit', verdict: 'ok' } },
      },
      {
        id: 'not-enough',
        heading: 'What the atomic claim does not do',
        body: [
          'It guarantees one owner at the moment of claiming. If a lease runs out while its worker is still busy, the next claim will rightly hand the run to someone else, and both will work on it. Guarding against that is the job of heartbeats and fencing tokens, later in this lesson.',
          'The same pattern runs in production: graphile-worker, pg-boss, River, Oban and procrastinate all claim with FOR UPDATE SKIP LOCKED inside a CTE or function, then mark the job as taken.',
        ],
        sources: ['graphile-getjobs', 'pgboss-plans', 'river-job-sql', 'oban-basic', 'procrastinate-schema'],
      },
    ],
  },
  {
    id: 'lock-modes',
    title: 'Wait, fail or skip: FOR UPDATE, NOWAIT, SKIP LOCKED',
    summary: 'One clause decides what the second worker does at a locked row.',
    scenarioId: 'lock-wait',
    settings: FOR_UPDATE,
    concepts: ['atomic-claim'],
    steps: [
      {
        id: 'setup',
        heading: 'A holds the lock',
        body: [
          'A has claimed run 123 and not committed yet, so it holds the row lock. B now runs a claim that differs in one clause only. Three versions of that clause give three different behaviours.',
        ],
        mark: { tokenIndex: 0, expect: { actor: 'A', action: 'claim', verdict: 'ok' } },
      },
      {
        id: 'for-update-waits',
        heading: 'Plain FOR UPDATE: B waits',
        body: [
          "Without SKIP LOCKED, B's scan stops at the locked row and waits for A's transaction to end. Every worker that polls now queues up behind the same row.",
        ],
        mark: { settings: FOR_UPDATE, tokenIndex: 1, expect: { actor: 'B', action: 'claim', verdict: 'blocked' } },
      },
      {
        id: 'for-update-resumes',
        heading: '…then re-checks',
        body: [
          "When A commits, B's statement carries on. Postgres re-checks row 123 against the WHERE clause, finds it running under a valid lease, drops it and continues to the next candidate: B gets 124. Correct, but B spent all of A's transaction waiting. That re-check is READ COMMITTED, the level the lab runs at. At REPEATABLE READ or SERIALIZABLE B gets SQLSTATE 40001 (could not serialize access due to concurrent update) instead of run 124, and even SKIP LOCKED fails that way when a row it would lock changed after its snapshot: queues claim at READ COMMITTED.",
        ],
        mark: { settings: FOR_UPDATE, tokenIndex: 2, expect: { actor: 'B', action: 'claim', resumed: true, runId: 124 } },
      },
      {
        id: 'nowait-fails',
        heading: 'NOWAIT: B fails',
        body: [
          "With NOWAIT, B's statement fails at once with SQLSTATE 55P03 (lock_not_available). Nothing waits, but every contended poll becomes an error that the worker must catch, roll back and retry.",
        ],
        mark: { settings: NOWAIT, tokenIndex: 1, expect: { actor: 'B', action: 'claim', verdict: 'error' } },
      },
      {
        id: 'nowait-retries',
        heading: '…and tries again',
        body: ['On its next attempt, after A has committed, B claims 124.'],
        mark: { settings: NOWAIT, tokenIndex: 3, expect: { actor: 'B', action: 'claim', verdict: 'ok', runId: 124 } },
      },
      {
        id: 'skip-locked-moves-on',
        heading: 'SKIP LOCKED: B moves on',
        body: [
          'With SKIP LOCKED, B passes over 123 and claims 124 in the same step. For a work queue this is what you want: a locked row is being claimed by someone else, so there is nothing worth waiting for. The PostgreSQL manual is explicit that skipping locked rows gives an inconsistent view of the data, which suits queue-like tables and little else.',
        ],
        mark: { settings: ATOMIC, tokenIndex: 1, expect: { actor: 'B', action: 'claim', verdict: 'ok', runId: 124 } },
        predict: ['lock-mode'],
        sources: ['pg-select-locking', 'pg-explicit-locking'],
      },
    ],
  },
  {
    id: 'lease',
    title: 'The lease',
    summary: 'Ownership with an end time, so a dead worker cannot keep a run forever.',
    scenarioId: 'crash-orphan',
    settings: ATOMIC,
    concepts: ['lease', 'lease-expiry'],
    steps: [
      {
        id: 'why',
        heading: 'Ownership that ends by itself',
        body: [
          'A claim says who owns a run. If that ownership lasted forever, a worker that died would keep its runs forever. A lease is temporary ownership: A owns run 123 until 15:01:00. To keep it longer, A must renew it before then. If A disappears, the lease runs out and another worker may take the run over.',
        ],
        mark: { tokenIndex: null },
      },
      {
        id: 'claimed',
        heading: 'A takes a 60 s lease',
        body: ["A claims run 123 with a 60 s lease. The row now reads `status = 'running'`, `lease_owner = 'A'`, `lease_expires_at = 15:01:00`."],
        mark: { tokenIndex: 1, expect: { actor: 'A', action: 'commit', verdict: 'ok' } },
      },
      {
        id: 'crash',
        heading: 'A crashes',
        body: ['A crashes after one model call. Nobody tells the database: the row still says A owns the run until 15:01:00.'],
        mark: { tokenIndex: 3, expect: { actor: 'A', action: 'crash' } },
      },
      {
        id: 'too-early',
        heading: 'Too early to take over',
        body: [
          "At 15:00:30 B looks for work and finds none: the lease is still valid, so the claim's WHERE clause leaves run 123 out. That is the price of a lease: after a crash, a run can wait up to one lease length before anyone rescues it.",
        ],
        mark: { tokenIndex: 5, expect: { actor: 'B', action: 'claim', verdict: 'empty' } },
        predict: ['lease-expiry'],
      },
      {
        id: 'choose',
        heading: 'Choosing a lease length',
        body: [
          "Too short, and a healthy worker that is briefly slow (a long model call, a garbage-collection pause, a network stall) loses its run to another worker: duplicate work. Too long, and a crashed worker's run sits idle for that long before anyone picks it up.",
          'A workable rule: size the lease from the longest pause you want to survive, renew it several times per lease (next chapter), and never tie the lease to how long the whole job takes. Real queues have met both failure modes: graphile-worker treats a job as abandoned after a fixed 4 hours, so a 6-hour job ran twice; with pg-boss, an expired job kept running while its retry started a second copy.',
        ],
        sources: ['graphile-169', 'pgboss-555'],
      },
    ],
  },
  {
    id: 'heartbeat',
    title: 'The heartbeat',
    summary: 'Renew the lease while working, so a long run stays owned.',
    scenarioId: 'heartbeat',
    settings: ATOMIC,
    concepts: ['heartbeat', 'lease'],
    steps: [
      {
        id: 'what',
        heading: 'I am still here',
        body: [
          'A heartbeat is a periodic write that says: I am alive, extend my lease. In this scenario each renewal moves the lease end to 60 s after the renewal.',
        ],
        sql: {
          sqlId: 'heartbeat-fenced',
          caption: 'src/sql/heartbeat-fenced.sql',
          clauses: [
            { match: 'SET heartbeat_at', lines: 2, note: 'Record when the worker was last seen and push the lease end a full lease past now.' },
            {
              match: 'AND lease_owner = $2',
              lines: 2,
              note: 'Only the current owner may renew, and only with the current generation. A worker that has lost the run gets 0 rows back: its signal to stop.',
            },
            { match: 'RETURNING', note: 'The renewal also reads cancel_requested, so a cancel reaches the worker on its next heartbeat.' },
          ],
        },
        mark: { tokenIndex: null },
      },
      {
        id: 'renew',
        heading: 'A renews',
        body: ['At 15:00:30 A renews: its lease now ends at 15:01:30 instead of 15:01:00.'],
        mark: { tokenIndex: 4, expect: { actor: 'A', action: 'heartbeat', verdict: 'ok' } },
      },
      {
        id: 'b-looks',
        heading: "Still A's",
        body: [
          "At 15:01:30, half a minute after A's first lease would have ended, B polls and finds nothing: the renewals kept the run A's. A long run survives for as long as its worker keeps renewing.",
        ],
        mark: { tokenIndex: 9, expect: { actor: 'B', action: 'claim', verdict: 'empty' } },
      },
      {
        id: 'interval',
        heading: 'Choosing the interval',
        body: [
          "Renew well inside the lease, so that one or two late or lost heartbeats do not cost the lease: renewing every third of the lease survives one missed heartbeat with 20 s to spare, and two in a row only if the next one is not a moment late (the lease then ends exactly at that beat, and a claim takes a run once `lease_expires_at < now()`). Temporal follows the same idea: an activity sets a Heartbeat Timeout and heartbeats well within it (the agent-steering recipe, on a side branch of Temporal's AI cookbook, heartbeats every second against a 5 s timeout).",
          'Heartbeats must also keep coming while the worker is busy or shutting down. A Temporal Java SDK bug stopped heartbeats during shutdown; the server timed the activity out, retried it, and the work ran twice.',
        ],
        predict: ['heartbeat-gap'],
        sources: ['temporal-failures', 'temporal-ai-cookbook', 'temporal-sdk-java-2903'],
      },
    ],
  },
  {
    id: 'progress-vs-liveness',
    title: 'Heartbeat is not progress',
    summary: 'A stuck worker can renew its lease forever.',
    scenarioId: 'stuck-heartbeat',
    settings: ATOMIC,
    concepts: ['progress-vs-liveness', 'heartbeat'],
    steps: [
      {
        id: 'alive',
        heading: 'Alive…',
        body: [
          'A claims run 123 and then hangs inside a model call that will never return. Its heartbeat runs on its own timer, so every 20 s the lease is renewed as usual.',
        ],
        mark: { tokenIndex: 3, expect: { actor: 'A', action: 'heartbeat', verdict: 'ok' } },
      },
      {
        id: 'stuck',
        heading: '…but stuck',
        body: ['Three renewals and not one unit of progress: the `progress` column is still 0. The lab flags stuck-while-heartbeating.'],
        mark: { tokenIndex: 7, expect: { actor: 'A', action: 'heartbeat', anomaly: 'stuck-while-heartbeating' } },
      },
      {
        id: 'nobody',
        heading: 'Nobody comes',
        body: ['B finds nothing to claim. The lease is fresh, so by every rule so far the run is healthy, and it will stay this way forever.'],
        mark: { tokenIndex: 9, expect: { actor: 'B', action: 'claim', verdict: 'empty' } },
      },
      {
        id: 'two-signals',
        heading: 'Two different signals',
        body: [
          'A heartbeat is evidence of liveness: the process is running. Progress is evidence of usefulness: business state changed (a step finished, a checkpoint was written). Leases and heartbeats only catch workers that stop. Catching a worker that is alive but stuck needs a separate check on progress, such as a deadline by which the progress counter must move, or a cap on total run time. Module 09 builds that detector.',
          'Temporal keeps the two apart as well: heartbeat details can carry progress for the next attempt, the Heartbeat Timeout measures liveness, and the Start-To-Close timeout still ends an attempt that heartbeats but never finishes.',
        ],
        predict: ['stuck-or-dead'],
        sources: ['temporal-failures'],
      },
    ],
  },
  {
    id: 'orphan-reclaim',
    title: 'Orphans and reclaim',
    summary: 'An expired lease makes the run claimable again, with the next generation.',
    scenarioId: 'crash-orphan',
    settings: ATOMIC,
    concepts: ['orphan-reclaim', 'lease-expiry'],
    steps: [
      {
        id: 'definition',
        heading: 'What an orphan looks like',
        body: [
          "An orphan is unfinished work whose owner's claim is no longer valid. In the table it looks like this: `status = running`, `lease_owner = worker-7`, `lease_expires_at = 15:00`, while the clock says 15:07. The owner may be dead, frozen or cut off; the database cannot tell which, and does not need to. An expired lease is enough to hand the run on.",
        ],
        mark: { tokenIndex: null },
      },
      {
        id: 'expires',
        heading: 'The lease runs out',
        body: ["At 15:01:01 A's lease has expired. Run 123 is an orphan."],
        mark: { tokenIndex: 6, expect: { actor: 'clock', fact: 'lease-expired' } },
      },
      {
        id: 'reclaim',
        heading: 'B reclaims it',
        body: [
          "B's ordinary claim picks it up: the second line of the WHERE clause matches orphans. No separate rescue job is needed, and the reclaim raises the generation to 19.",
        ],
        sql: {
          sqlId: 'claim-skip-locked',
          caption: 'src/strategies/skip-locked/claim-skip-locked.sql: the reclaim branch',
          clauses: [
            {
              match: "OR (status = 'running' AND lease_expires_at < now())",
              note: 'A running run whose lease has ended is as ready as a pending one.',
            },
          ],
        },
        mark: { tokenIndex: 7, expect: { actor: 'B', action: 'claim', verdict: 'ok', generation: 19 } },
        predict: ['lease-expiry'],
      },
      {
        id: 'resume',
        heading: 'B carries on from the checkpoint',
        body: [
          "B continues from the progress A recorded (progress goes from 1 to 2), because the checkpoint lives in the row, not in A's memory. Whatever A did after its last checkpoint is done again: reclaiming gives at-least-once execution, never exactly-once.",
        ],
        mark: { tokenIndex: 9, expect: { actor: 'B', action: 'work', verdict: 'ok', runProgress: 2 } },
      },
      {
        id: 'production',
        heading: 'How production queues rescue orphans',
        body: [
          "Most Postgres queues rescue by time alone. River's rescuer resets jobs that have been running longer than a horizon (1 hour by default), and its documentation warns that this can run a job twice; Oban's Lifeline does the same after 60 minutes by default, purely by time. procrastinate leaves it to you: you schedule a query for stalled jobs (no worker heartbeat for 30 s) and retry them. Solid Queue's supervisor prunes processes whose heartbeat is older than 5 minutes and fails or releases their claims.",
          "A rescue is only as safe as the guard on the final write. River's rescuer once overwrote a job that completed just after the rescuer fetched it; the fix re-checks, in the write itself, that the job is still running with the same attempted_at.",
        ],
        sources: ['river-job-sql', 'oban-lifeline', 'procrastinate-schema', 'solid-queue', 'river-1302', 'river-1373'],
      },
    ],
  },
  {
    id: 'fencing',
    title: 'Fencing tokens',
    summary: 'A paused worker wakes with generation 18 after 19 exists: its write must fail.',
    scenarioId: 'paused-worker',
    settings: ATOMIC,
    concepts: ['fencing'],
    steps: [
      {
        id: 'token',
        heading: 'A gets generation 18',
        body: ['A lease timestamp alone leaves a gap, and this chapter shows it. A claims run 123 and receives generation 18: its fencing token.'],
        mark: { tokenIndex: 0, expect: { actor: 'A', action: 'claim', verdict: 'ok', generation: 18 } },
      },
      {
        id: 'freeze',
        heading: 'A freezes',
        body: [
          'At 15:00:10 A freezes: a long garbage-collection pause, a migrated VM, a stalled call. A frozen process does not know it was frozen; when it wakes, it carries on from exactly where it was.',
        ],
        mark: { tokenIndex: 3, expect: { actor: 'A', action: 'pause' } },
      },
      {
        id: 'reclaim',
        heading: 'B takes generation 19',
        body: ["A's lease ends at 15:01:00. B reclaims the run and receives generation 19. As far as the database is concerned, A's ownership is over."],
        mark: { tokenIndex: 5, expect: { actor: 'B', action: 'claim', verdict: 'ok', generation: 19 } },
      },
      {
        id: 'wake',
        heading: 'A wakes up',
        body: ['A wakes at 15:01:40, still believing it owns run 123 with generation 18.'],
        mark: { tokenIndex: 8, expect: { actor: 'A', action: 'resume' } },
      },
      {
        id: 'rejected',
        heading: 'Fencing on: the stale write fails',
        body: [
          'A writes its result with its token: in effect `… WHERE run_id = 123 AND lease_generation = 18`. The run is at 19, so 0 rows match and A stops. Once a newer generation exists, the old owner cannot commit.',
        ],
        sql: {
          sqlId: 'complete-fenced',
          caption: 'src/sql/complete-fenced.sql',
          clauses: [
            { match: 'AND lease_generation = $2', note: 'The fence: the write applies only while the run is at the generation this worker was given.' },
          ],
        },
        mark: { tokenIndex: 9, expect: { actor: 'A', action: 'complete', verdict: 'rejected', anomaly: 'stale-write-rejected' } },
      },
      {
        id: 'unfenced',
        heading: 'Fencing off: split ownership',
        body: [
          "Replay with fencing off. The unfenced write checks only that the run is running, which is still true, so A's result lands on a run that B owns. Two workers have now made authoritative writes to one run: split ownership.",
        ],
        mark: { settings: ATOMIC_UNFENCED, tokenIndex: 9, expect: { actor: 'A', action: 'complete', verdict: 'ok', anomaly: 'split-ownership' } },
        predict: ['fencing-write'],
      },
      {
        id: 'scope',
        heading: 'What fencing protects, and what it does not',
        body: [
          "It protects writes to the store that checks the token: here, every UPDATE a worker makes to its run (progress, heartbeat, completion, cancellation). A stale worker's write fails instead of overwriting its successor's.",
          'It does not stop the stale worker from running, and it does not undo what that worker did elsewhere. A model call it makes after waking is paid for even though its write is rejected; an email it sent, or a call to an API that ignores the token, has happened. To widen the protection, pass the token along and have those systems refuse older ones, or make the side effects idempotent.',
          'Nor does it detect anything sooner: the lease still decides when ownership ends. Fencing only guarantees that an old owner cannot write once a new one exists.',
          "Most Postgres queues have no such guard on completion: graphile-worker and Oban complete by job id, pg-boss and procrastinate check only the job's state. Temporal's equivalent is the attempt number inside the activity task token: a late result from an earlier attempt is rejected. Solid Queue's claimed-execution row plays the same role: finishing does nothing once that row is gone.",
        ],
        sources: ['kleppmann-locking', 'temporal-started', 'solid-queue', 'oban-basic', 'graphile-getjobs'],
      },
    ],
  },
  {
    id: 'cancellation',
    title: 'Durable cancellation',
    summary: 'Store the cancel in the row; killing a process is just a crash.',
    scenarioId: 'cancel-kill',
    settings: ATOMIC,
    concepts: ['cancellation'],
    steps: [
      {
        id: 'kill',
        heading: 'Cancel by killing',
        body: [
          'An operator wants run 123 stopped and kills the process running it. A is gone, but nothing in the database says the run should stop: it still reads running, leased to A.',
        ],
        mark: { tokenIndex: 3, expect: { actor: 'operator', action: 'kill' } },
      },
      {
        id: 'revived',
        heading: 'The run comes back',
        body: [
          'When the lease expires, B reclaims the run, exactly as designed for crashes, and finishes it. The lab flags lost-cancel: to the rest of the system, a killed process looks the same as a crashed one.',
        ],
        mark: { tokenIndex: 9, expect: { actor: 'B', action: 'complete', verdict: 'ok', anomaly: 'lost-cancel' } },
      },
      {
        id: 'durable',
        heading: 'Write the request down',
        body: ['Instead, record the request where every current and future owner will see it: set `cancel_requested` on the run.'],
        sql: {
          sqlId: 'cancel-request',
          caption: 'src/sql/cancel-request.sql',
          clauses: [
            { match: 'SET cancel_requested = true', note: "The request is a fact in the row. It outlives the worker, the operator's session and any restart." },
          ],
        },
        mark: { scenarioId: 'cancel-durable', tokenIndex: 3, expect: { actor: 'operator', action: 'cancel-request', verdict: 'ok' } },
      },
      {
        id: 'checked',
        heading: 'Checked at a safe boundary',
        body: [
          'A checks at a safe boundary: each write it makes to the run returns cancel_requested, so it learns about the cancel after its current model call, never half-way through one.',
        ],
        mark: { scenarioId: 'cancel-durable', tokenIndex: 4, expect: { actor: 'A', action: 'work', verdict: 'ok', fact: 'cancel-seen' } },
      },
      {
        id: 'acked',
        heading: 'The owner finishes the cancel',
        body: ['A moves the run to cancelled, with its fencing token so that a stale owner cannot, and stops. B later finds nothing to claim.'],
        sql: {
          sqlId: 'cancel-ack-fenced',
          caption: 'src/sql/cancel-ack-fenced.sql',
          clauses: [{ match: "= 'cancelled'", note: 'The run reaches a final state, so no claim will ever match it again.' }],
        },
        mark: { scenarioId: 'cancel-durable', tokenIndex: 5, expect: { actor: 'A', action: 'cancel-ack', verdict: 'ok' } },
      },
      {
        id: 'survives-crash',
        heading: 'Even if the owner dies first',
        body: [
          'What if A crashes before it sees the flag? The request is still in the row. B reclaims the run, its claim returns `cancel_requested = true`, and B cancels the run instead of carrying on.',
        ],
        mark: {
          scenarioId: 'cancel-durable',
          schedule: ['A', 'A', 'A', 'cancel:123', 'crash:A', '+61', 'B', 'B', 'B'],
          tokenIndex: 8,
          expect: { actor: 'B', action: 'cancel-ack', verdict: 'ok' },
        },
        predict: ['cancel-outcome'],
      },
      {
        id: 'production',
        heading: 'In production',
        body: [
          "procrastinate stores `abort_requested`, notifies workers and also polls, and the job asks `should_abort()`. River's JobCancel records the request on the row and notifies the worker. Oban marks the job cancelled in the table and, if the job is executing on that node, kills its process. Temporal persists CancelRequested and delivers it in the reply to the activity's next heartbeat, so an activity that never heartbeats cannot be cancelled mid-run.",
          'Whatever the product: store the request, and have workers check it at safe points.',
        ],
        sources: ['procrastinate-schema', 'river-job-sql', 'oban-basic', 'temporal-failures'],
      },
    ],
  },
  {
    id: 'backpressure',
    title: 'Backpressure',
    summary: 'Work arrives faster than it finishes: limits keep cost and load bounded.',
    scenarioId: 'three-workers',
    settings: ATOMIC,
    concepts: ['backpressure'],
    steps: [
      {
        id: 'problem',
        heading: 'Work arrives faster than it finishes',
        body: [
          'Agent runs are long and expensive, and they can be created far faster than workers finish them: a burst of user requests, a retry storm, one tenant enqueuing ten thousand runs. If nothing pushes back, the queue grows without bound, every run waits longer, and spending follows the queue.',
        ],
        mark: { tokenIndex: null },
      },
      {
        id: 'workers',
        heading: 'The first limit: how many workers',
        body: [
          'The bluntest limit is already here: three workers can hold at most three runs at once, and a fourth run would wait in the table until one finished. But a worker count is per process and says nothing about tenants, models or money. The useful limits are stated in terms of the work.',
        ],
        mark: { tokenIndex: 2, expect: { actor: 'C', action: 'claim', verdict: 'ok' } },
      },
      {
        id: 'limits',
        heading: 'Four limits worth having',
        body: [
          'Max active runs: a global cap on runs in the running state. It protects the database and everything downstream.',
          "Max active runs per tenant: one tenant's burst must not starve everyone else. The lab's runs table already has a `tenant` column for this.",
          'Max concurrent model calls: providers limit requests and tokens per minute; that, not CPU, is usually the scarce resource.',
          'Max run cost: a run whose `cost_cents` passes its budget is stopped at its next safe boundary, the same way a cancellation is.',
          'Counting inside the claim, as in the sketch below, is itself racy: two workers claiming at once can both see a tenant one below its limit. Production queues close the gap with a lock or counter per key, or by enforcing the limit inside the fetch itself. This is write skew: each claim reads what the other writes, and REPEATABLE READ does not stop it (the two claims update different rows). SERIALIZABLE does, by failing one of the two with SQLSTATE 40001, which the worker must then retry. The links below step through the race of the tenant cap in the lab, recorded on PostgreSQL at both levels (at REPEATABLE READ the lab flags tenant-over-cap at the second COMMIT; at SERIALIZABLE the cap holds); on a real server, `docs/examples/tenant-limit-repeatable-read.spec` and `tenant-limit-serializable.spec` show both.',
          'The backpressure lab plays these limits on the same Postgres with many runs, tenants and workers: each claim first takes a transaction-level advisory lock, so the count and the claim happen one worker at a time, and a FIFO claim runs beside a fair one on the same arrivals.',
        ],
        view: { fragment: '#backpressure', label: 'Open the backpressure lab: FIFO against a fair claim →' },
        recordings: ['tenant-cap-repeatable-read', 'tenant-cap-serializable'],
        sketch: {
          caption: "A per-tenant cap inside the claim (a sketch; this chapter's level plays its race with a cap of 1)",
          sql: [
            'WITH busy AS (',
            '  SELECT tenant, count(*) AS active',
            '  FROM runs',
            "  WHERE status = 'running' AND lease_expires_at >= now()",
            '  GROUP BY tenant',
            '), candidate AS (',
            '  SELECT r.run_id',
            '  FROM runs r',
            '  LEFT JOIN busy b USING (tenant)',
            "  WHERE r.status = 'pending'",
            '    AND coalesce(b.active, 0) < $3  -- the per-tenant limit',
            '  ORDER BY r.created_at',
            '  LIMIT 1',
            '  FOR UPDATE OF r SKIP LOCKED',
            ')',
            "UPDATE runs SET status = 'running', lease_owner = $1 /* … */",
            'WHERE run_id IN (SELECT run_id FROM candidate)',
            'RETURNING run_id, lease_generation;',
          ].join('\n'),
        },
      },
      {
        id: 'elsewhere',
        heading: 'How others do it',
        body: [
          "Oban's queue limit is per node: a limit of 2 on three nodes runs 6 jobs at once. River caps MaxWorkers per queue; graphile-worker caps concurrentJobs per process and runs each named queue one job at a time; pg-boss has localConcurrency and enforces groupConcurrency inside its fetch SQL; Solid Queue declares limits_concurrency with a key and a duration; procrastinate serialises jobs that share a lock. Temporal bounds worker slots (max concurrent activities), rate-limits a task queue (MaxTaskQueueActivitiesPerSecond), and balances tenants with fairness keys.",
          'Scheduling is partly a cost-control problem: decide which limits protect your budget before a burst decides for you.',
        ],
        sources: [
          'oban-basic',
          'river-job-sql',
          'graphile-getjobs',
          'pgboss-plans',
          'solid-queue',
          'procrastinate-schema',
          'temporal-worker-performance',
          'temporal-fairness',
        ],
      },
    ],
  },
  {
    id: 'production-queues',
    title: 'What production queues do',
    summary: "Four public incidents, replayed under each queue's own claim and guard, and then under the fix.",
    scenarioId: 'incident-graphile-169',
    settings: GRAPHILE,
    concepts: ['lease-expiry', 'heartbeat', 'orphan-reclaim', 'fencing'],
    steps: [
      {
        id: 'where-they-differ',
        heading: 'Where production queues differ',
        body: [
          "graphile-worker, pg-boss, River, Oban, Solid Queue and procrastinate all take jobs with `FOR UPDATE SKIP LOCKED`, so two workers polling at the same moment never take the same job. Their public incidents start later, at three questions each queue answers its own way: when does a worker's ownership end, what renews it, and what does the final write check?",
          "The lab writes each queue's claim and writes in its own SQL on the same runs table (pick one under Strategy), each following the queue's source at a pinned commit. This chapter replays four incidents under the queue's own guard, with fencing off, and then under their fix. Where a queue frees abandoned jobs in a pass of its own, that pass has its own lane in the timeline, as the rescuer. Here is graphile-worker's claim:",
        ],
        sql: {
          sqlId: 'graphile-claim-available',
          caption: 'src/strategies/graphile-worker/graphile-claim-available.sql',
          clauses: [
            {
              match: "WHERE status = 'pending'",
              note: "Only jobs no worker has locked. A lock older than the lock age is freed by graphile-worker's periodic reset (graphile-reset-locked.sql), the rescuer here.",
            },
            { match: '  FOR UPDATE SKIP LOCKED', note: "The same claim as the lab's atomic one: a job another open claim holds is passed over." },
            {
              match: 'lease_expires_at = now() + make_interval(secs => $2)',
              note: 'The lock age, counted from the claim: 4 hours in graphile-worker. No later statement moves it.',
            },
          ],
        },
        mark: { tokenIndex: null },
        sources: ['graphile-getjobs', 'pgboss-plans', 'river-job-sql', 'oban-basic', 'solid-queue', 'procrastinate-schema'],
      },
      {
        id: 'graphile-claim',
        heading: 'graphile-worker: A takes a 6-hour job',
        body: [
          "Run 123 is a job that takes about 6 hours. At 15:00 A claims it with graphile-worker's claim. The lab's row records generation 18; graphile-worker itself keeps no such number.",
        ],
        mark: { tokenIndex: 0, expect: { actor: 'A', action: 'claim', verdict: 'ok', generation: 18 } },
      },
      {
        id: 'graphile-no-renewal',
        heading: 'Three hours in, nothing renews the lock',
        body: [
          'At 18:00 A is still working and looks at its run. Under graphile-worker that renews nothing: it has no heartbeat, so the lock still dates from 15:00 and counts as abandoned at 19:00, whether or not A is alive.',
        ],
        mark: { tokenIndex: 4, expect: { actor: 'A', action: 'heartbeat', verdict: 'ok', fact: 'lease-unmoved' } },
      },
      {
        id: 'graphile-twice',
        heading: 'Four hours and a second: B takes it too',
        body: [
          "At 19:00:01 the lock is more than 4 hours old. graphile-worker frees such a lock with a periodic reset, in the rescuer's lane: its one UPDATE puts run 123 back to pending, on lock age alone. B's ordinary claim takes it as generation 19 and calls the model for it while A is still working on it. The 6-hour job now runs twice, as it did in graphile/worker #169.",
          'Predict first: with another queue, another horizon or a lease its heartbeat renews, what happens to a long job?',
        ],
        mark: { tokenIndex: 7, expect: { actor: 'B', action: 'claim', verdict: 'ok', generation: 19 } },
        predict: ['long-job'],
        sources: ['graphile-169'],
      },
      {
        id: 'graphile-both-finish',
        heading: 'Both finish it',
        body: [
          "A finishes its work and completes the job. graphile-worker's completion deletes the job by id alone, so A's completion lands although B holds the run now (the lab marks the run done instead of deleting it). The lab flags duplicate-execution and split-ownership.",
        ],
        mark: { tokenIndex: 11, expect: { actor: 'A', action: 'complete', verdict: 'ok', anomaly: 'split-ownership' } },
      },
      {
        id: 'graphile-fix',
        heading: 'The fix: a lease the heartbeat renews',
        body: [
          "Replay with the lab's atomic claim and fencing on. At 18:00 A's heartbeat moves its lease to 22:00, so at 19:00:01 B finds nothing to claim and A finishes alone.",
          'A lease that only the clock ends cannot tell a slow worker from a dead one. A lease its owner renews ends when the owner stops renewing, however long the job takes.',
        ],
        mark: {
          settings: ATOMIC,
          schedule: ['A', 'A', 'A', '+10800', 'A', '+3601', 'rescue', 'B'],
          tokenIndex: 7,
          expect: { actor: 'B', action: 'claim', verdict: 'empty' },
        },
      },
      {
        id: 'oban',
        heading: 'Oban: the same story in minutes',
        body: [
          "Oban's Lifeline plugin puts an executing job back once its attempt is older than rescue_after (60 minutes by default), purely on time; open-source Oban has no heartbeat and completes a job by id. hex.pm ran a stats job that takes 9 to 47 minutes with rescue_after at 6 minutes, and it ran two or three times a night for a week (hexpm/hexpm PR #1825).",
          "Here A's job is two model calls just over 6 minutes apart, and the Lifeline has its own lane. At 15:06:01 its one UPDATE puts the job back to pending, B takes it as generation 19, and A's completion by id still lands afterwards.",
        ],
        mark: {
          scenarioId: 'incident-oban-hexpm-1825',
          settings: OBAN,
          tokenIndex: 7,
          expect: { actor: 'B', action: 'claim', verdict: 'ok', generation: 19 },
        },
        sources: ['oban-lifeline', 'hexpm-1825'],
      },
      {
        id: 'pg-boss',
        heading: 'pg-boss: the expired copy keeps writing',
        body: [
          "pg-boss counts a job's expiry from its start (expireInSeconds, 15 minutes by default). Its maintenance fails an expired job and retries it (if it has retries left), and nothing tells the copy still running. A touch records heartbeat_on but does not move the expiry, and the completion checks only `state = 'active'`, which the retry has set again.",
          "Here the supervisor has its own lane. At 15:15:01 its one UPDATE puts the expired job back as a retry, B starts it, and A's progress and completion still land: two copies of one job wrote to it (timgit/pg-boss #555).",
        ],
        mark: {
          scenarioId: 'incident-pg-boss-555',
          settings: PG_BOSS,
          schedule: PG_BOSS_555,
          tokenIndex: 11,
          expect: { actor: 'A', action: 'complete', verdict: 'ok', anomaly: 'split-ownership' },
        },
        sources: ['pgboss-plans', 'pgboss-555'],
      },
      {
        id: 'pg-boss-wrong-copy',
        heading: 'The guard stops the wrong copy',
        body: [
          "B's next write finds the job already completed by A and matches 0 rows, so B stops. The state check did refuse a write, but the one it refused came from the copy that owned the job; the expired copy's writes had all landed.",
        ],
        mark: {
          scenarioId: 'incident-pg-boss-555',
          settings: PG_BOSS,
          schedule: PG_BOSS_555,
          tokenIndex: 12,
          expect: { actor: 'B', action: 'work', verdict: 'rejected', fact: { kind: 'write-missed', because: { kind: 'not-running', status: 'done' } } },
        },
      },
      {
        id: 'pg-boss-fenced',
        heading: "A generation fence on pg-boss's writes",
        body: [
          "Turn fencing on: the lab puts its generation check on pg-boss's touch, progress and completion, a check pg-boss does not have. A's first write after the retry matches 0 rows and A stops, leaving the job to B.",
          "The fence keeps the stale copy out of the row, not out of the world: the model call A made just before that write is still paid for, and the expiry still started a second copy. Stopping the second copy takes a lease the running worker renews, as in graphile-worker's fix.",
        ],
        mark: {
          scenarioId: 'incident-pg-boss-555',
          settings: PG_BOSS_FENCED,
          schedule: ['A', 'A', 'A', '+600', 'A', '+301', 'rescue', 'B', 'B', 'B', 'A'],
          tokenIndex: 10,
          expect: { actor: 'A', action: 'work', verdict: 'rejected', runGeneration: 19 },
        },
      },
      {
        id: 'solid-queue',
        heading: 'Solid Queue: a pruned worker finishes its job',
        body: [
          "Solid Queue keeps a claim alive with its process's heartbeat (every 60 seconds by default); the supervisor prunes a process whose heartbeat is older than 5 minutes and fails its claimed executions. In rails/solid_queue #589 a live worker's heartbeat went stale while its job ran on: the pruner failed the job while the worker was finishing it, and the job ended up both finished and failed.",
          "Here the pruner has its own lane, and A's stalled heartbeat is played as none. At 15:05:01 the pruner's one UPDATE marks A's run failed; then A's finish, by id, still lands and marks it done: the run is finalized twice, on a claim that is gone.",
        ],
        mark: {
          scenarioId: 'incident-solid-queue-589',
          settings: SOLID_QUEUE,
          tokenIndex: 5,
          expect: { actor: 'A', action: 'complete', verdict: 'ok', anomaly: 'finalized-twice' },
        },
        sources: ['solid-queue', 'solid-queue-589'],
      },
      {
        id: 'solid-queue-fix',
        heading: 'Solid Queue 1.5.0: the claim row is the token',
        body: [
          "Since v1.5.0 finishing locks the worker's own claimed-execution row and does nothing if that row is gone. One row per claim is a fencing token by another name; the lab writes it as its generation check on a running run, and A's finish matches 0 rows: the run stays failed.",
        ],
        mark: {
          scenarioId: 'incident-solid-queue-589',
          settings: SOLID_QUEUE_FIXED,
          tokenIndex: 5,
          expect: { actor: 'A', action: 'complete', verdict: 'rejected', fact: { kind: 'write-missed', fencing: true } },
        },
        predict: ['late-finish'],
      },
      {
        id: 'three-questions',
        heading: 'Three questions for any queue',
        body: [
          'When does ownership end? graphile-worker after a fixed 4-hour lock age, Oban after rescue_after, River after RescueStuckJobsAfter (1 hour by default) and pg-boss at an expiry counted from the start: all by time alone, so each horizon must be longer than the longest job. Solid Queue ends a claim when its process stops heartbeating; procrastinate counts a job as stalled when its worker stops heartbeating, and retries it only when a task you schedule asks; the next pgqueuer dequeue takes a job whose own heartbeat is older than retry_timer, and the next Hangfire.PostgreSql fetch one fetched longer ago than the invisibility timeout (30 minutes by default).',
          "What renews it? Solid Queue's process heartbeat, procrastinate's worker heartbeat and pgqueuer's job heartbeat, which must land well inside retry_timer (issue #430: one beat per retry_timer was too few), and Hangfire.PostgreSql's sliding invisibility timeout, off by default (issue #352, PR #353). River has no heartbeat (issue #682 asks for one), and pg-boss's optional heartbeat can only fail a job sooner.",
          "What does the final write check? graphile-worker, Oban, pgqueuer and delayed_job the id, pg-boss, River and Hangfire the state, procrastinate that the job is todo or doing, and Solid Queue, since v1.5.0, its own claim row. Of the nine only Solid Queue's claim row acts as a fencing token; delayed_job's reserve even trusts the worker's name, taking back at once any job locked under it (issue #1045: workers that shared a name took each other's jobs). The Scenario picker lists every incident the lab replays; each opens under its queue's own guard.",
        ],
        sources: [
          'graphile-getjobs',
          'oban-lifeline',
          'river-job-sql',
          'river-682',
          'pgboss-plans',
          'solid-queue',
          'procrastinate-schema',
          'pgqueuer-qb',
          'pgqueuer-430',
          'hangfire-postgresql-queue',
          'hangfire-postgresql-352',
          'delayed-job-active-record',
          'delayed-job-1045',
        ],
      },
    ],
  },
]);

/** Whether a name from outside the code (a link, saved progress) is a chapter's id. */
export function isChapterId(id: string): id is ChapterId {
  return CHAPTERS.some((chapter) => chapter.id === id);
}

/** The chapter with this id: there is one, or the id would not compile. */
export function chapterById(id: ChapterId): Chapter {
  return CHAPTERS.find((chapter) => chapter.id === id)!;
}

/** The chapter after this one, or undefined at the end. */
export function nextChapter(id: ChapterId): Chapter | undefined {
  const index = CHAPTERS.findIndex((chapter) => chapter.id === id);
  return index < 0 ? undefined : CHAPTERS[index + 1];
}
