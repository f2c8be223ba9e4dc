/**
 * Check your understanding: questions of five kinds, each with an explanation and the chapter that
 * teaches it. Predict questions have no stored answer: they are graded by running the engine on a
 * freshly generated instance (see predict.ts).
 */
import { fnv1a, seededRandom, shuffled } from '../sim/random';
import { sqlLines, uniqueLine } from './sql-lines';
import type { Choice, MultipleChoiceQuestion, OrderQuestion, QuizAnswer, QuizQuestion, SingleChoiceQuestion, SpotTheBugQuestion } from './types';

export const QUIZ: readonly QuizQuestion[] = [
  {
    id: 'q-race-condition',
    kind: 'single',
    chapterId: 'select-then-update',
    prompt: 'What makes a bug a race condition?',
    choices: [
      { id: 'timing', label: 'Whether it shows up depends on the timing of concurrent operations', correct: true },
      {
        id: 'same-code',
        label: 'Two workers run the same code',
        whyNot: 'Running the same code is not the fault: every worker runs the same claim with the atomic claim too, and it never takes one run twice.',
      },
      {
        id: 'timeout',
        label: 'A query takes longer than its timeout',
        whyNot:
          'A timeout is about how long one query takes, and it fails the same way whoever else is running. The naive claim has no timeout in it and still goes wrong.',
      },
      {
        id: 'order',
        label: 'The database returns the rows of a query without ORDER BY in an order that can change from run to run',
        whyNot: 'The claim orders its candidates by created_at, so the order does not change from run to run; and an unordered result is not a bug by itself.',
      },
    ],
    explanation:
      'A race condition is a bug whose appearance depends on how concurrent operations interleave: the naive claim is correct when A reads and writes before B reads, and wrong when B reads in between.',
  },
  {
    id: 'q-why-claim',
    kind: 'single',
    chapterId: 'race',
    prompt: 'The final write of every run is already protected by an idempotency key. Why still stop duplicates at the claim?',
    choices: [
      { id: 'paid', label: 'By the time the final write is checked, the duplicate model and tool calls have already run and been paid for', correct: true },
      {
        id: 'postgres',
        label: 'Idempotency keys do not work in Postgres',
        whyNot: 'They do: a unique key, or a status check in the final write, refuses a second completion in Postgres as anywhere else.',
      },
      {
        id: 'corrupt',
        label: 'The second final write would corrupt the first despite the key',
        whyNot: 'The key does its job: the second final write is refused and the first result stays as it was.',
      },
      {
        id: 'not-needed',
        label: "There is no need: the key makes the second worker's final write fail, and that failure undoes the model calls it made",
        whyNot:
          "A failing write undoes only its own transaction's changes in the database. Calls to a model service outside the database are not undone by it.",
      },
    ],
    explanation:
      'Idempotency protects the last write, not the work before it. In the race scenario both workers paid for model calls on run 123 (four calls for a run that needed two) before either tried to complete it.',
  },
  {
    id: 'q-select-update',
    kind: 'single',
    chapterId: 'select-then-update',
    prompt: "SELECT and UPDATE are each atomic. Why is 'SELECT a pending run, then UPDATE it' still unsafe?",
    choices: [
      { id: 'gap', label: 'Another worker can read the same row between the two statements, and the UPDATE does not check it again', correct: true },
      {
        id: 'update',
        label: 'UPDATE is not atomic in Postgres',
        whyNot: 'A single UPDATE is atomic in Postgres: it changes every row it matches, or none. The trouble is not inside one statement.',
      },
      {
        id: 'select-lock',
        label: 'The plain SELECT takes a row lock on the pending run, so the UPDATE of the other worker has to wait for it and then overwrites',
        whyNot: 'A plain SELECT takes no row lock (only writes and a locking clause such as FOR UPDATE or FOR SHARE do), so it makes no other worker wait.',
      },
      {
        id: 'connections',
        label: 'The two statements run on different connections',
        whyNot:
          'Each worker sends both its statements on its own session. Which connection a statement uses does not decide whether two workers can claim one run.',
      },
    ],
    explanation:
      'Atomic statements do not make a sequence of statements atomic. Between the read and the write there is a window in which a second worker can read the same pending row; the blind UPDATE then lets both claims through.',
  },
  {
    id: 'q-cas',
    kind: 'multiple',
    chapterId: 'compare-and-set',
    prompt: "Which are true of the compare-and-set claim (UPDATE … WHERE run_id = $1 AND status = 'pending')?",
    choices: [
      { id: 'one-owner', label: 'Two workers can no longer both claim the same run', correct: true },
      { id: 'zero-rows', label: 'The loser learns it lost because its UPDATE matches 0 rows', correct: true },
      {
        id: 'wait-take',
        label: 'The loser waits until the winner commits and then takes the same run',
        whyNot:
          "After the wait, READ COMMITTED re-evaluates the UPDATE's WHERE on the row the winner committed; status = 'pending' no longer holds there, so the loser cannot take that run.",
      },
      { id: 'waste', label: 'Under contention most workers read the same row and lose, wasting a round trip each', correct: true },
      {
        id: 'no-select',
        label: 'It removes the need for the SELECT',
        whyNot: 'The compare-and-set UPDATE is given a run_id ($1): something still has to choose that candidate, and that is the SELECT.',
      },
    ],
    explanation:
      "The status test in the UPDATE makes the second claim match 0 rows, so there is one owner. The loser does wait if the winner's UPDATE is still uncommitted, but then re-checks the row and finds it no longer pending. The SELECT is still there, and every loser has to go back to it: that is the cost.",
  },
  {
    id: 'q-isolation-level',
    kind: 'single',
    chapterId: 'compare-and-set',
    prompt: "B's compare-and-set UPDATE on run 123 waited for A's uncommitted claim of it. A commits. What does B's UPDATE do?",
    choices: [
      { id: 'depends', label: 'At READ COMMITTED it matches 0 rows; at REPEATABLE READ it fails with SQLSTATE 40001', correct: true },
      {
        id: 'always-zero',
        label: "At every isolation level it re-checks A's row, matches 0 rows and returns no error",
        whyNot:
          'The isolation level matters here: at REPEATABLE READ an UPDATE may not act on a row version committed after its snapshot was taken, so it does not simply match 0 rows.',
      },
      {
        id: 'always-40001',
        label: 'At every isolation level it fails with 40001 and the worker must retry its claim',
        whyNot:
          "At READ COMMITTED, Postgres's default and the lab's level, a waiting UPDATE raises no serialization error: it re-checks its WHERE on the newest version of the row.",
      },
      {
        id: 'overwrites',
        label: "At READ COMMITTED it overwrites A's claim; at REPEATABLE READ it matches 0 rows",
        whyNot: 'At READ COMMITTED a waiting UPDATE re-checks its WHERE on the newest version of the row, so it does not write a row that no longer matches.',
      },
    ],
    explanation:
      "At READ COMMITTED, the lab's level and Postgres's default, the waiting UPDATE re-evaluates its WHERE on the row A committed, finds status no longer 'pending' and matches 0 rows. At REPEATABLE READ or SERIALIZABLE it may not act on a row version newer than its snapshot, so it fails with 40001 (could not serialize access due to concurrent update); a SKIP LOCKED claim fails the same way there. That is why queues claim at READ COMMITTED.",
  },
  {
    // The right answer is PostgreSQL's, as recorded: tests/unit/isolation-questions.test.ts checks it against the tenant cap's recordings.
    id: 'q-write-skew',
    kind: 'single',
    chapterId: 'compare-and-set',
    prompt:
      "Acme may have one run running, and the claim counts acme's running runs before it takes one. A and B each claim in a transaction of their own, both before either commits, and take different runs of acme's; then A commits, then B. What does B's COMMIT do at REPEATABLE READ, and at SERIALIZABLE?",
    choices: [
      {
        id: 'rr-commits-serializable-fails',
        label: 'At REPEATABLE READ it commits and acme runs two; at SERIALIZABLE it fails with 40001',
        correct: true,
      },
      {
        id: 'both-fail',
        label: 'At both levels it fails with 40001, as an UPDATE of a changed row does',
        whyNot:
          "REPEATABLE READ fails an UPDATE or a locking read only on a row another transaction changed after its snapshot. A and B wrote different rows, so nothing of B's conflicts at REPEATABLE READ, and both commit.",
      },
      {
        id: 'both-commit',
        label: 'At both levels it commits: no two claims touched the same row',
        whyNot:
          "SERIALIZABLE also tracks what each transaction read. B counted acme's runs, A's claim changed that count, and A's count missed B's claim: a cycle that no serial order explains, so PostgreSQL fails B's COMMIT with 40001.",
      },
      {
        id: 'waits',
        label: "At both levels it waits for A's claim, then counts again",
        whyNot:
          "Nothing makes B's claim or COMMIT wait: SKIP LOCKED sent B past the run A locked, and a count takes no row locks. Neither claim sees the other's uncommitted claim.",
      },
    ],
    explanation:
      "Write skew: each claim counts acme in the rows committed when it began, where the other's claim is not yet visible, and they write different rows. At REPEATABLE READ both commit and acme runs two at once. At SERIALIZABLE B's COMMIT fails with 40001 (could not serialize access due to read/write dependencies among transactions); B rolls back, claims again, sees acme at its cap and takes beta's run. Recorded on PostgreSQL 15: the chapter's links step through both.",
  },
  {
    // Checked on the recording of three SKIP LOCKED claims at SERIALIZABLE and the same claims at READ COMMITTED (tests/unit/isolation-questions.test.ts).
    id: 'q-claim-isolation',
    kind: 'single',
    chapterId: 'compare-and-set',
    prompt: 'Production queues claim with FOR UPDATE SKIP LOCKED at READ COMMITTED, not in SERIALIZABLE transactions. What would SERIALIZABLE cost them?',
    choices: [
      {
        id: 'aborts',
        label: 'Overlapping claims fail with 40001 at COMMIT: their work is lost and they retry',
        correct: true,
      },
      {
        id: 'double',
        label: 'Nothing in safety, but SKIP LOCKED would let two claims take the same run',
        whyNot:
          'SKIP LOCKED never hands one locked run to two claims, at any level: the second claim leaves the locked row out. SERIALIZABLE adds failures, not duplicates.',
      },
      {
        id: 'waits',
        label: 'Each claim would wait for every open claim to commit first',
        whyNot:
          'SERIALIZABLE does not make a claim wait for others to commit; it lets them run and fails one at its COMMIT (40001) when their reads and writes cannot be put in a serial order.',
      },
      {
        id: 'unsupported',
        label: 'SKIP LOCKED is not allowed at SERIALIZABLE, so they could not use it',
        whyNot:
          'PostgreSQL accepts FOR UPDATE SKIP LOCKED at SERIALIZABLE; the lab recorded three such claims on a real server. They run, and two of the three fail at COMMIT.',
      },
    ],
    explanation:
      "At READ COMMITTED, SKIP LOCKED already gives each of three overlapping claims a different run, and none fails. Run the same three claims at SERIALIZABLE and, as recorded on PostgreSQL 15, A commits but B's and C's COMMITs fail with 40001: each read rows the others' claims changed. Their claims are thrown away and they must roll back and claim again, more round trips and contention for no gain, since SKIP LOCKED already kept claims apart. A queue that needs more than a row lock gives (a cap per tenant) takes a lock per key instead.",
  },
  {
    id: 'q-skip-locked',
    kind: 'single',
    chapterId: 'atomic-claim',
    prompt: 'What does SKIP LOCKED change about FOR UPDATE?',
    choices: [
      { id: 'skip', label: 'What the statement does at a row another transaction has locked: it leaves the row out instead of waiting', correct: true },
      {
        id: 'short',
        label: 'The lock lasts only until the statement ends',
        whyNot: 'SKIP LOCKED does not change how long a lock lasts: a row lock taken by FOR UPDATE is held until the transaction ends.',
      },
      {
        id: 'expired',
        label: 'Rows whose lease_expires_at is already in the past are left out, so the claim never takes a run with an expired lease',
        whyNot: "SKIP LOCKED knows nothing about leases or any other column: which rows qualify is the WHERE clause's job.",
      },
      {
        id: 'share',
        label: 'Two transactions may lock the same row',
        whyNot: 'FOR UPDATE is an exclusive row lock, with SKIP LOCKED or without: two transactions never hold it on one row at once.',
      },
    ],
    explanation:
      'SKIP LOCKED only changes the behaviour at a row that is already locked: the row is left out of the result and the scan continues. The lock itself (taken by FOR UPDATE) is the same and lasts until the transaction ends.',
    sources: ['pg-select-locking'],
  },
  {
    id: 'q-lock-duration',
    kind: 'single',
    chapterId: 'atomic-claim',
    prompt: 'How long does a row lock taken with FOR UPDATE last?',
    choices: [
      { id: 'transaction', label: 'Until the transaction that took it commits or rolls back', correct: true },
      {
        id: 'statement',
        label: 'Until the SELECT … FOR UPDATE statement that took it has returned its rows',
        whyNot:
          "Row locks outlive the statement that took them: in the lab's claim transaction, the lock taken by the claim still holds, parked, after the claim has returned.",
      },
      {
        id: 'lease',
        label: 'Until the lease expires',
        whyNot: "The lease is a column in the row (lease_expires_at); Postgres's lock manager knows nothing of it. Locks and leases end independently.",
      },
      {
        id: 'asked',
        label: 'Until another worker asks for the row',
        whyNot: 'Asking for a locked row waits, skips it or fails (NOWAIT); it never takes the lock away from the transaction that holds it.',
      },
    ],
    explanation:
      'Row locks are released at the end of the transaction. In the lab the claim transaction is kept open as its own step so you can see the lock; in production the claim is usually a single auto-committed statement, so the lock lasts milliseconds. The lease, not the lock, is what keeps the run owned afterwards.',
    sources: ['pg-explicit-locking'],
  },
  {
    id: 'q-cte',
    kind: 'single',
    chapterId: 'atomic-claim',
    prompt: "Why does the lab's claim choose its candidate in a WITH query rather than in WHERE run_id IN (SELECT … LIMIT 1 FOR UPDATE SKIP LOCKED)?",
    choices: [
      {
        id: 'once',
        label: 'The planner may run a sub-select in WHERE more than once, locking and updating more rows than LIMIT; a WITH query runs once',
        correct: true,
      },
      {
        id: 'faster',
        label: 'A WITH query is always faster',
        whyNot: 'Speed is not what makes a claim right or wrong: the question is what the statement can do, not how fast it does it.',
      },
      {
        id: 'not-allowed',
        label: 'FOR UPDATE SKIP LOCKED is refused in a sub-select inside WHERE, so the claim has to move its locking clause into a WITH query',
        whyNot: 'It is allowed: PostgreSQL accepts FOR UPDATE SKIP LOCKED in a sub-select inside WHERE, and runs it.',
      },
      { id: 'returning', label: 'RETURNING only works after a WITH query', whyNot: 'RETURNING works on any UPDATE, with a WITH query or without one.' },
    ],
    explanation:
      'This is PostgreSQL BUG #15715: with the sub-select form, the planner can choose a plan that re-runs the LIMIT sub-select, so one "claim one run" statement can claim several. A WITH query is evaluated once; Oban\'s claim even adds MATERIALIZED and comments on why.',
    sources: ['pg-bug-15715', 'oban-basic'],
  },
  {
    id: 'q-nowait',
    kind: 'single',
    chapterId: 'lock-modes',
    prompt: 'With FOR UPDATE NOWAIT, what does a worker get when the oldest candidate row is locked by another claim?',
    choices: [
      { id: 'error', label: 'An immediate error (SQLSTATE 55P03) that it must catch and retry', correct: true },
      { id: 'wait', label: 'It waits for the other transaction to end', whyNot: 'Waiting is what plain FOR UPDATE does; NOWAIT is there to refuse to wait.' },
      {
        id: 'next',
        label: 'It leaves the locked row out and gets the next pending run that no other transaction has locked',
        whyNot: 'Leaving locked rows out and moving on is what SKIP LOCKED does, a different locking option.',
      },
      {
        id: 'empty',
        label: 'An empty result',
        whyNot: 'An empty result is what SKIP LOCKED gives when every candidate is locked; NOWAIT never quietly returns fewer rows.',
      },
    ],
    explanation: 'NOWAIT turns a would-be wait into an error at once. Plain FOR UPDATE waits; SKIP LOCKED moves on to the next row.',
  },
  {
    id: 'q-lease',
    kind: 'multiple',
    chapterId: 'lease',
    prompt: 'Which are true of leases?',
    choices: [
      { id: 'takeover', label: "Another worker can take over a dead worker's run without anyone detecting the death", correct: true },
      { id: 'idle', label: 'After a crash, a run can sit idle for up to one lease length', correct: true },
      {
        id: 'longer-safer',
        label: 'A longer lease is always safer',
        whyNot: "A longer lease makes false takeovers rarer, but a crashed worker's run then waits longer to be taken over: it trades one cost for another.",
      },
      { id: 'too-short', label: 'A lease that is too short can hand a run to a second worker while the first is still working on it', correct: true },
      {
        id: 'stops',
        label: "When a lease expires, the database stops the old owner's process",
        whyNot:
          "The database never touches a worker's process: when a lease ends, only the row says so. The old owner keeps running until a write of its own fails.",
      },
    ],
    explanation:
      'A lease needs no failure detector: time alone ends it. The cost is a delay of up to one lease after a crash, so longer is not simply safer. Too short, and a slow but healthy worker loses its run. The database never stops anyone; the old owner keeps running until a write of its own fails.',
  },
  {
    id: 'q-heartbeat-interval',
    kind: 'single',
    chapterId: 'heartbeat',
    prompt: 'Runs hold a 60 s lease. Which heartbeat interval is the best choice?',
    choices: [
      { id: '20', label: 'Every 20 s', correct: true },
      {
        id: '60',
        label: 'Every 60 s',
        whyNot: 'Renewing exactly as often as the lease lasts leaves no slack: a renewal that is late by a second lets the lease lapse.',
      },
      {
        id: '90',
        label: 'Every 90 s',
        whyNot: 'Renewals 90 s apart leave the 60 s lease expired for 30 s between every pair of beats, and any claim in that gap takes the run.',
      },
      {
        id: 'step',
        label: 'Whenever a step finishes (steps can take several minutes)',
        whyNot: 'Steps can take several minutes, longer than the 60 s lease, so the lease lapses in the middle of every long step.',
      },
    ],
    explanation:
      'Every 20 s survives one missed or late renewal with 20 s to spare (two in a row only with no lateness at all: the lease would end exactly at the third beat). At 60 s any delay at all loses the lease; at 90 s the lease lapses between every pair of beats; tying renewal to step completion loses the lease whenever a step runs longer than 60 s.',
  },
  {
    id: 'q-progress',
    kind: 'multiple',
    chapterId: 'progress-vs-liveness',
    prompt: 'A worker keeps renewing its lease, but its progress column has not moved for an hour. Which are true?',
    choices: [
      { id: 'never-expires', label: 'Its lease will not expire while its heartbeat keeps running', correct: true },
      {
        id: 'reclaimed',
        label: 'The atomic claim will reclaim the run when the lease expires',
        whyNot:
          'The claim takes a running run only when its lease_expires_at is in the past, and while the renewals keep coming that never becomes true of this run.',
      },
      { id: 'progress-check', label: 'Noticing it needs a check on progress, not on heartbeats', correct: true },
      { id: 'max-time', label: "A cap on run time (like Temporal's Start-To-Close timeout) would end the attempt", correct: true },
      {
        id: 'proves',
        label: 'The heartbeat proves the run is making progress',
        whyNot:
          'A heartbeat is sent by a loop that runs whether the work moves or not: it says the process is alive, and the progress column here has not moved for an hour.',
      },
    ],
    explanation:
      'A heartbeat shows liveness, not progress. Because the lease keeps being renewed it never expires, so nothing lease-based will rescue the run. A progress deadline or a cap on total time is what catches it.',
  },
  {
    id: 'q-orphan',
    kind: 'single',
    chapterId: 'orphan-reclaim',
    prompt: 'A row reads status = running, lease_owner = worker-7, lease_expires_at = 15:00, and the clock says 15:07. What is it?',
    choices: [
      { id: 'orphan', label: 'An orphan: the next atomic claim may take it', correct: true },
      {
        id: 'healthy',
        label: 'A healthy run: worker-7 owns it until it writes status = done, whatever the lease says',
        whyNot:
          'In this design ownership lasts only as long as the lease: at 15:07 a lease that ended at 15:00 no longer protects the run, whatever the status says.',
      },
      {
        id: 'finished',
        label: 'A finished run that was never marked done',
        whyNot: 'A finished run has status = done, written by its final write; status = running says the work was never recorded as finished.',
      },
      {
        id: 'locked',
        label: "A run waiting for worker-7's row lock",
        whyNot: 'Row locks belong to open transactions, and none of these columns is a lock: lease_owner is plain data in the row.',
      },
    ],
    explanation:
      "Its ownership is no longer valid (the lease ended seven minutes ago) and the work is unfinished. The claim's second WHERE branch (running and lease_expires_at < now()) matches it.",
  },
  {
    id: 'q-reclaim-order',
    kind: 'order',
    chapterId: 'orphan-reclaim',
    prompt: 'Put this crash and reclaim in order.',
    items: [
      { id: 'claim', label: 'A claims run 123: generation 18, 60 s lease' },
      { id: 'progress', label: 'A records progress 1', why: 'A worker records progress only on a run it has claimed.' },
      { id: 'crash', label: 'A crashes', why: "B later carries on from A's progress 1, so A recorded it before it crashed." },
      {
        id: 'early',
        label: 'B polls and finds nothing: the lease is still valid',
        why: "B's poll finds A's lease still valid: A has claimed the run, and the lease has not run out yet.",
      },
      { id: 'expire', label: 'The lease expires: run 123 is an orphan', why: 'A lease expires 60 s after the claim; until then a poll finds it valid.' },
      { id: 'reclaim', label: 'B claims run 123 as generation 19', why: 'B can reclaim only an orphan: a running run whose lease has expired.' },
      { id: 'continue', label: 'B carries on from progress 1', why: 'B carries on from the saved progress only once it owns the run.' },
    ],
    explanation:
      'A crash changes nothing in the database, so B must wait for the lease to run out. The ordinary claim then takes the orphan with the next generation, and the checkpoint in the row lets B continue instead of starting over.',
  },
  {
    id: 'q-fencing-order',
    kind: 'order',
    chapterId: 'fencing',
    prompt: 'Put the events of split ownership (fencing off) in order.',
    items: [
      { id: 'claim', label: 'A claims run 123 with generation 18' },
      { id: 'freeze', label: 'A freezes', why: 'A freezes while holding the run it claimed.' },
      { id: 'expire', label: "A's lease expires", why: 'The lease A took at its claim expires because A, frozen, stops renewing it.' },
      { id: 'reclaim', label: 'B reclaims the run with generation 19', why: 'B can reclaim only a run whose lease has expired.' },
      { id: 'wake', label: 'A wakes, still believing it holds generation 18', why: "A's belief is stale only once B holds a newer generation." },
      {
        id: 'write',
        label: "A's unfenced write commits: split ownership",
        why: 'A write is stale, and ownership split, only when a newer owner exists and the stale worker writes after waking.',
      },
    ],
    explanation: 'The stale write can only happen after a newer owner exists. With fencing on, the last step becomes a rejected write (0 rows).',
  },
  {
    id: 'q-fencing-scope',
    kind: 'multiple',
    chapterId: 'fencing',
    prompt: 'With fencing on, a frozen worker wakes holding generation 18 after B took generation 19. Which are true?',
    choices: [
      { id: 'zero', label: 'Its UPDATEs that carry AND lease_generation = 18 match 0 rows', correct: true },
      { id: 'paid', label: 'A model call it makes after waking is still paid for', correct: true },
      {
        id: 'email',
        label: 'An email it sends after waking is blocked by the token',
        whyNot: 'Only a system that checks the token can refuse the stale worker; an email service knows nothing of lease_generation.',
      },
      {
        id: 'sooner',
        label: 'The token makes the pause get noticed sooner',
        whyNot: 'Fencing does not change when the lease ends or when anyone notices the pause; it only refuses writes that carry an old token.',
      },
      { id: 'overwrite', label: "Without the token check, its completion could overwrite B's run", correct: true },
    ],
    explanation:
      'Fencing protects the writes of systems that check the token, here the runs table. It does not stop the stale worker from running, cannot recall side effects in systems that ignore the token, and does not change when the lease ends.',
  },
  {
    id: 'q-temporal-fencing',
    kind: 'single',
    chapterId: 'fencing',
    prompt: 'In Temporal, what plays the role of the fencing token?',
    choices: [
      { id: 'attempt', label: 'The attempt number carried in the activity task token', correct: true },
      {
        id: 'heartbeat-timeout',
        label: 'The Heartbeat Timeout, which ends an attempt whose worker stops sending heartbeats',
        whyNot:
          'The Heartbeat Timeout decides when an attempt ends, as a lease does. A fencing token is what makes a later write from the ended attempt get refused.',
      },
      {
        id: 'workflow-id',
        label: 'The workflow id',
        whyNot: 'The workflow id stays the same across every retry of an activity, so it cannot tell an old attempt from a new one.',
      },
      {
        id: 'queue',
        label: 'The task queue name',
        whyNot: 'The task queue is shared by every attempt and every worker that polls it; it tells no attempt apart.',
      },
    ],
    explanation:
      'When an attempt times out and is retried, the attempt number increases. A heartbeat or completion from an older attempt is refused by the server ("activity already timed out").',
    sources: ['temporal-started', 'temporal-failures'],
  },
  {
    id: 'q-rescue-by-time',
    kind: 'single',
    chapterId: 'orphan-reclaim',
    prompt: 'graphile-worker treats a locked job as abandoned after 4 hours. What happened to a job that really ran for 6 hours?',
    choices: [
      { id: 'twice', label: 'Another worker picked it up and ran it a second time while the first run was still going', correct: true },
      {
        id: 'cancelled',
        label: 'It was cancelled after 4 hours',
        whyNot: 'graphile-worker cancels nothing at 4 hours: the old lock just stops counting, and the first worker goes on.',
      },
      { id: 'heartbeat', label: 'A heartbeat extended the lock', whyNot: "graphile-worker has no heartbeat: nothing renews a job's lock while the job runs." },
      {
        id: 'nothing',
        label: 'Nothing: the 4-hour rule only applies to a job whose worker process has crashed, and this one was still alive',
        whyNot: 'The 4-hour rule cannot tell a crashed worker from a live one: it looks only at the age of the lock.',
      },
    ],
    explanation:
      'Rescue by time cannot tell a dead worker from a slow one. With no heartbeat to renew it, the 4-hour rule treated the live job as abandoned and it ran twice (graphile/worker #169).',
    sources: ['graphile-169'],
  },
  {
    id: 'q-cancel',
    kind: 'single',
    chapterId: 'cancellation',
    prompt: "Why is killing the worker's process not a reliable way to cancel a run?",
    choices: [
      { id: 'revived', label: 'Nothing records that the run should stop, so after its lease expires another worker reclaims it and carries on', correct: true },
      {
        id: 'not-allowed',
        label: 'Postgres does not allow a process to be killed',
        whyNot:
          "A worker's process can be killed by the operating system or an orchestrator; Postgres has no say in it. The question is what the run's row says afterwards.",
      },
      {
        id: 'rolled-back',
        label: "The killed worker's last write is rolled back and corrupts the run",
        whyNot: 'Rolling back an uncommitted transaction puts the row back as it was before that transaction: nothing is corrupted.',
      },
      {
        id: 'done',
        label: 'The run is marked done when its process dies, because Postgres commits what the session had written when it ends',
        whyNot:
          "Postgres never commits for a session that ends: a dead session's open transaction is rolled back, and a run is marked done only by a write that says so.",
      },
    ],
    explanation:
      "To the rest of the system a killed worker looks like a crashed one, and crashed workers' runs are meant to be reclaimed. The lab flags it as lost-cancel.",
  },
  {
    id: 'q-cancel-where',
    kind: 'single',
    chapterId: 'cancellation',
    prompt: 'Where should a worker check cancel_requested?',
    choices: [
      {
        id: 'boundaries',
        label: 'At safe boundaries, for example after each model call, in the write that records progress or renews the lease',
        correct: true,
      },
      {
        id: 'claim-only',
        label: 'Only once, when it claims the run',
        whyNot: 'A cancel requested after the claim would then never be seen: the run would go on to its end.',
      },
      {
        id: 'never',
        label: "Nowhere: the operator's kill takes care of it",
        whyNot: 'A kill leaves nothing in the row, so once the lease expires another worker reclaims the run and carries on.',
      },
      {
        id: 'thread',
        label: 'In a separate thread that watches for the cancel and kills the worker at once, in the middle of a model call',
        whyNot:
          'Killing the worker in the middle of a model call leaves the run half done, and to everyone else a killed worker looks like a crashed one, whose run gets reclaimed.',
      },
    ],
    explanation:
      'Checking at safe boundaries stops the run between steps, where its state is consistent. Piggybacking the check on writes the worker makes anyway costs nothing; Temporal delivers cancellation the same way, in the reply to a heartbeat.',
  },
  {
    id: 'q-backpressure',
    kind: 'multiple',
    chapterId: 'backpressure',
    prompt: 'Which of these limit how much work (and money) agent runs can consume at once?',
    choices: [
      { id: 'active', label: 'Max active runs', correct: true },
      { id: 'tenant', label: 'Max active runs per tenant', correct: true },
      { id: 'model', label: 'Max concurrent model calls', correct: true },
      { id: 'cost', label: 'Max run cost', correct: true },
      {
        id: 'lease',
        label: 'A longer lease',
        whyNot: "Lease length decides how long a crashed worker's run waits to be reclaimed; it caps neither how many runs are active nor what they spend.",
      },
      {
        id: 'heartbeat',
        label: 'A shorter heartbeat interval',
        whyNot: 'The heartbeat interval decides how often a lease is renewed; it caps neither how many runs are active nor what they spend.',
      },
    ],
    explanation:
      'The first four bound load and spending directly. Lease length and heartbeat interval decide how fast failures are detected; they do not limit how much work runs at once.',
  },
  {
    id: 'q-backpressure-tenant',
    kind: 'single',
    chapterId: 'backpressure',
    prompt: "One tenant enqueues 500 runs at once. Which limit keeps that burst from taking every worker while other tenants' runs wait?",
    choices: [
      { id: 'tenant', label: 'Max active runs per tenant', correct: true },
      {
        id: 'active',
        label: 'Max active runs, across all tenants',
        whyNot: "It caps the total, but one tenant's 500 runs can fill every one of those slots.",
      },
      {
        id: 'cost',
        label: 'Max run cost, so that no single run can spend more than its budget',
        whyNot: 'It stops one run that spends too much; 500 runs that each stay under the budget all pass it.',
      },
      {
        id: 'lease',
        label: 'A shorter lease',
        whyNot: "Lease length decides how soon a crashed worker's run is taken over; it does not decide whose runs are claimed.",
      },
    ],
    explanation:
      "A cap on each tenant's active runs leaves the remaining slots to the other tenants: the claim passes over the runs of a tenant that is at its cap.",
  },
  {
    id: 'q-bug-expiry',
    kind: 'bug',
    chapterId: 'atomic-claim',
    prompt: 'This claim sometimes takes runs away from healthy workers. Which line is wrong?',
    sql: [
      'WITH candidate AS (',
      '  SELECT run_id',
      '  FROM runs',
      "  WHERE status = 'pending'",
      "     OR (status = 'running' AND lease_expires_at > now())",
      '  ORDER BY created_at',
      '  LIMIT 1',
      '  FOR UPDATE SKIP LOCKED',
      ')',
      'UPDATE runs',
      "SET status           = 'running',",
      '    lease_owner      = $1,',
      '    lease_expires_at = now() + make_interval(secs => $2),',
      '    lease_generation = lease_generation + 1',
      'WHERE run_id IN (SELECT run_id FROM candidate)',
      'RETURNING run_id, lease_generation;',
    ].join('\n'),
    faultyLineContains: 'lease_expires_at > now()',
    lineNotes: [
      { match: "WHERE status = 'pending'", note: 'Pending runs are the ones any worker may claim: this branch is right.' },
      { match: 'ORDER BY created_at', note: "Oldest first decides which candidate is taken, not whether a healthy worker's run can be one." },
      { match: 'LIMIT 1', note: 'One candidate per claim is what a claim wants.' },
      { match: 'FOR UPDATE SKIP LOCKED', note: 'Skipping rows another claim has locked keeps two claims apart; it cannot make a run claimable.' },
      { match: 'SET status', note: 'A claimed run is marked running: right for its new owner.' },
      { match: 'lease_owner      = $1', note: 'Naming the new owner is right.' },
      { match: 'lease_expires_at = now() + make_interval', note: 'A fresh lease, counted from now, is what a claim gives its owner.' },
      { match: 'lease_generation = lease_generation + 1', note: 'Raising the generation is what every claim must do, so a stale owner can be fenced.' },
      { match: 'WHERE run_id IN (SELECT run_id FROM candidate)', note: 'It updates the one candidate the WITH query chose: right.' },
    ],
    explanation:
      'The comparison is reversed: it matches running runs whose lease is still valid, so it steals live work, and it never matches real orphans. It should be lease_expires_at < now().',
  },
  {
    id: 'q-bug-subselect',
    kind: 'bug',
    chapterId: 'atomic-claim',
    prompt: 'Under load, this "claim one run" statement occasionally claims several. Which line is to blame?',
    sql: [
      'UPDATE runs',
      "SET status           = 'running',",
      '    lease_owner      = $1,',
      '    lease_expires_at = now() + make_interval(secs => $2),',
      '    lease_generation = lease_generation + 1',
      'WHERE run_id IN (',
      '  SELECT run_id',
      '  FROM runs',
      "  WHERE status = 'pending'",
      '  ORDER BY created_at',
      '  LIMIT 1',
      '  FOR UPDATE SKIP LOCKED',
      ')',
      'RETURNING run_id, lease_generation;',
    ].join('\n'),
    faultyLineContains: 'WHERE run_id IN (',
    lineNotes: [
      { match: "WHERE status = 'pending'", note: 'Only pending runs are candidates: right.' },
      { match: 'ORDER BY created_at', note: 'The order decides which runs come first, not how many are taken.' },
      { match: 'LIMIT 1', note: 'Asking for one row is right; the question is why more than one gets claimed anyway.' },
      {
        match: 'FOR UPDATE SKIP LOCKED',
        note: 'Skipping rows another claim holds makes each claim take a row nobody else has; on its own it never claims extra rows.',
      },
      { match: 'SET status', note: 'A claimed run is marked running: right.' },
      { match: 'lease_generation = lease_generation + 1', note: 'Raising the generation with each claim is right.' },
    ],
    explanation:
      'Putting the locking LIMIT sub-select inside WHERE … IN (…) lets the planner execute it more than once, so more than LIMIT rows can be locked and updated (PostgreSQL BUG #15715). Choose the candidate in a WITH query, which runs once.',
    sources: ['pg-bug-15715', 'oban-basic'],
  },
  {
    id: 'q-bug-heartbeat',
    kind: 'bug',
    chapterId: 'heartbeat',
    prompt: "A worker that lost its run to a reclaim keeps renewing it, pushing the new owner's lease forward as well. Which line is wrong?",
    sql: [
      'UPDATE runs',
      'SET heartbeat_at     = now(),',
      '    lease_expires_at = now() + make_interval(secs => $3)',
      'WHERE run_id = $1',
      "  AND status = 'running'",
      'RETURNING lease_expires_at, cancel_requested;',
    ].join('\n'),
    faultyLineContains: "AND status = 'running'",
    lineNotes: [
      { match: 'SET heartbeat_at', note: 'Recording when the last beat came is harmless.' },
      { match: 'lease_expires_at = now()', note: 'Pushing the lease forward from now is what a renewal does.' },
      { match: 'WHERE run_id = $1', note: "A renewal has to name its run, and the run's id does that." },
      { match: 'RETURNING', note: 'Returning cancel_requested is how the worker learns of a cancel at each beat; it changes nothing in the row.' },
    ],
    explanation:
      'Any worker can renew any running run. The renewal must check ownership, the owner and its generation, as src/sql/heartbeat-fenced.sql does (AND lease_owner = … AND lease_generation = …), so that a worker that has lost the run gets 0 rows and stops.',
  },
  {
    id: 'q-bug-generation',
    kind: 'bug',
    chapterId: 'fencing',
    prompt: "With this claim, a stale worker's fenced writes still succeed after a reclaim. Which line is wrong?",
    sql: [
      'WITH candidate AS (',
      '  SELECT run_id',
      '  FROM runs',
      "  WHERE status = 'pending'",
      "     OR (status = 'running' AND lease_expires_at < now())",
      '  ORDER BY created_at',
      '  LIMIT 1',
      '  FOR UPDATE SKIP LOCKED',
      ')',
      'UPDATE runs',
      "SET status           = 'running',",
      '    lease_owner      = $1,',
      '    lease_expires_at = now() + make_interval(secs => $2),',
      '    lease_generation = lease_generation',
      'WHERE run_id IN (SELECT run_id FROM candidate)',
      'RETURNING run_id, lease_generation;',
    ].join('\n'),
    faultyLineContains: 'lease_generation = lease_generation',
    lineNotes: [
      { match: "WHERE status = 'pending'", note: 'Pending runs are claimable: right.' },
      { match: 'lease_expires_at < now()', note: 'Running runs whose lease has ended are the orphans a claim should take: right.' },
      { match: 'FOR UPDATE SKIP LOCKED', note: 'Skipping runs another claim holds is right.' },
      { match: 'SET status', note: 'A claimed run is marked running: right.' },
      { match: 'lease_owner      = $1', note: "Naming the new owner is right, and the fenced writes do not check the owner's name." },
      { match: 'lease_expires_at = now() + make_interval', note: 'A fresh lease for the new owner is right.' },
      { match: 'WHERE run_id IN (SELECT run_id FROM candidate)', note: 'It updates the one candidate the WITH query chose: right.' },
    ],
    explanation:
      "Every claim must raise the generation (lease_generation + 1). Here a reclaim keeps the old number, so the stale owner's token still matches and its writes land: the fence is gone.",
  },
  {
    id: 'q-predict-race',
    kind: 'predict',
    generatorId: 'claim-race',
    chapterId: 'race',
    explanation: 'The naive claim lets both workers take the oldest run; compare-and-set and the atomic claim send the second worker to the next run.',
  },
  {
    id: 'q-predict-lock',
    kind: 'predict',
    generatorId: 'lock-mode',
    chapterId: 'lock-modes',
    explanation: 'FOR UPDATE waits at a locked row, NOWAIT fails, SKIP LOCKED leaves it out and takes the next candidate (or nothing).',
  },
  {
    id: 'q-predict-lease',
    kind: 'predict',
    generatorId: 'lease-expiry',
    chapterId: 'lease',
    explanation:
      'A committed claim keeps the run until its lease ends; an uncommitted one rolls back with the crash. Each successful claim raises the generation by one.',
  },
  {
    id: 'q-predict-heartbeat',
    kind: 'predict',
    generatorId: 'heartbeat-gap',
    chapterId: 'heartbeat',
    explanation: 'If the gap between renewals is longer than the lease, the lease lapses in between and any claim can take the run from a healthy worker.',
  },
  {
    id: 'q-predict-fencing',
    kind: 'predict',
    generatorId: 'fencing-write',
    chapterId: 'fencing',
    explanation: 'Only a reclaim makes a write stale. Then the fenced write matches 0 rows and the unfenced one commits: split ownership.',
  },
  {
    id: 'q-predict-write-skew',
    kind: 'predict',
    generatorId: 'write-skew-recorded',
    chapterId: 'compare-and-set',
    explanation:
      "Two claims that count a tenant's running runs and take different runs are write skew: both commit at REPEATABLE READ, and acme runs two at once; at SERIALIZABLE the second COMMIT fails with 40001, and the cap holds.",
  },
  {
    id: 'q-predict-cancel',
    kind: 'predict',
    generatorId: 'cancel-outcome',
    chapterId: 'cancellation',
    explanation:
      'A stored cancel_requested is seen by whoever owns the run next; a kill leaves nothing behind: the run stays leased to the killed worker until its lease expires, and a claim after that reclaims it and carries on.',
  },
  {
    id: 'q-queues-duplicates',
    kind: 'single',
    chapterId: 'production-queues',
    prompt:
      'graphile-worker, pg-boss, Oban and Solid Queue all claim with FOR UPDATE SKIP LOCKED, yet each has a public incident in which one job was run, or finished, twice. What caused it?',
    choices: [
      { id: 'ownership-ended', label: "The queue ended the first worker's ownership while that worker was still running the job", correct: true },
      {
        id: 'same-moment',
        label: 'Two claims took the same job at the same moment, because SKIP LOCKED lets a second transaction read a row another one has locked',
        whyNot: 'SKIP LOCKED leaves out a row another transaction has locked, so two claims never take one job at the same moment.',
      },
      {
        id: 'snapshots',
        label: 'The claims ran at REPEATABLE READ, so two snapshots taken at the same time both saw the job as ready and both claimed it',
        whyNot:
          'Two transactions cannot both update one row: at REPEATABLE READ the second would fail with a serialization error (40001) instead of claiming the job too.',
      },
      {
        id: 'rollback',
        label: 'A claim transaction rolled back after its worker had started the job, which put the job back in the queue as ready',
        whyNot: 'None of these incidents involved a claim that rolled back: every claim in them committed normally.',
      },
    ],
    explanation:
      'SKIP LOCKED made every claim safe: no two workers took one job at once. The trouble came later, when a rule by time (a 4-hour lock, rescue_after, an expiry) or a pruned process ended ownership while the first worker was alive and still working.',
    sources: ['graphile-169', 'hexpm-1825', 'pgboss-555', 'solid-queue-589'],
  },
  {
    id: 'q-oban-rescue-after',
    kind: 'single',
    chapterId: 'production-queues',
    prompt: "hex.pm ran a stats job that takes 9 to 47 minutes under Oban, with the Lifeline's rescue_after set to 6 minutes. What happened?",
    choices: [
      { id: 'ran-again', label: 'The job ran two or three times a night', correct: true },
      {
        id: 'killed',
        label: "The Lifeline killed the job's process after 6 minutes, so the job never finished",
        whyNot: "The Lifeline never kills a process: it only changes the job's row, so the first run went on.",
      },
      {
        id: 'heartbeat',
        label: "Nothing went wrong: Oban's heartbeat renewed the job while it ran, so the Lifeline left it alone",
        whyNot: 'Open-source Oban has no heartbeat for a running job: nothing tells the Lifeline that the job is still alive.',
      },
      {
        id: 'waited',
        label: "The rescued copy waited for the first copy's row lock, then ran once the first had finished",
        whyNot: 'The first run committed its claim long before, so it held no row lock for a rescued copy to wait for.',
      },
    ],
    explanation:
      'The Lifeline rescues an executing job purely on time, and open-source Oban has no heartbeat to say the job is still alive. A job longer than rescue_after was put back and run again while the first run went on (hexpm/hexpm PR #1825). The first run is not stopped, and the rescued copy waits for nothing: the first worker committed its claim long before.',
    sources: ['hexpm-1825', 'oban-lifeline'],
  },
  {
    id: 'q-pgboss-expired-writes',
    kind: 'single',
    chapterId: 'production-queues',
    prompt: "A pg-boss job outlives its expiry and its retry starts on another worker while the first copy still runs. What stops the first copy's writes?",
    choices: [
      { id: 'nothing', label: "Nothing: its writes check only state = 'active', and the retry made the job active again", correct: true },
      {
        id: 'touch-fails',
        label: 'Its next touch fails once the job has expired, and the first copy stops at that touch',
        whyNot: "A touch looks at the job's state, not at which copy is touching, and after the retry the job is in a state the touch accepts.",
      },
      {
        id: 'killed',
        label: 'The maintenance that expires the job also ends the process of the worker running it',
        whyNot: "pg-boss's maintenance changes rows only; it has no hold on a worker's process.",
      },
      {
        id: 'row-lock',
        label: "The retry keeps the row locked while it runs, so the first copy's writes wait until the retry has finished",
        whyNot: "The retry's claim commits at once: no transaction stays open holding the row while the job runs.",
      },
    ],
    explanation:
      "pg-boss's completion, and its touch, check that the job is active, with no owner or attempt. The retry sets the state to active again, so the expired copy's writes still land (timgit/pg-boss #555). A generation fence on those writes would refuse them.",
    sources: ['pgboss-555', 'pgboss-plans'],
  },
  {
    id: 'q-solid-queue-claim-row',
    kind: 'single',
    chapterId: 'production-queues',
    prompt: "Since v1.5.0, how does Solid Queue keep a pruned worker's finish from landing on a job it no longer holds?",
    choices: [
      { id: 'claim-row', label: 'Finishing locks its own claimed-execution row and does nothing if that row is gone', correct: true },
      {
        id: 'kill-first',
        label: "The supervisor now kills the worker's process before it fails the claimed executions of that process",
        whyNot: 'A pruned process may still be alive, and its finish still arrives later; what the supervisor does to it beforehand cannot refuse that finish.',
      },
      {
        id: 'status',
        label: "The finish checks that the job's status still says running",
        whyNot: 'A status check passes whenever the job is running again under a new claim, so the stale finish would land.',
      },
      {
        id: 'faster-heartbeat',
        label: 'Processes heartbeat every second, so a live worker is never pruned',
        whyNot:
          'Beating more often makes pruning rarer, but a frozen or cut-off process still misses beats and is pruned; its late finish still has to be refused.',
      },
    ],
    explanation:
      "The claimed-execution row is one per claim, so it acts as a fencing token: once the pruner has ended the claim, the stale worker's finish finds no row and does nothing (rails/solid_queue #589). A status check would not do: the job may be running again under a new claim.",
    sources: ['solid-queue-589', 'solid-queue'],
  },
  {
    id: 'q-queue-guards',
    kind: 'multiple',
    chapterId: 'production-queues',
    prompt:
      "A worker's job was taken over, and the new owner is running it now. The old worker finishes and writes its completion. Whose completion write, as each queue's source writes it, would still land?",
    choices: [
      { id: 'graphile', label: "graphile-worker's: it deletes the job by id", correct: true },
      { id: 'oban', label: "Oban's: it completes the job by id", correct: true },
      { id: 'river', label: "River's: it checks state = 'running'", correct: true },
      {
        id: 'solid-queue',
        label: "Solid Queue's since v1.5.0: it finalizes only its own claimed execution",
        whyNot: "Since v1.5.0 Solid Queue's finish locks its own claimed-execution row, and the takeover removed that row, so the finish does nothing.",
      },
      {
        id: 'fenced',
        label: "The lab's fenced completion: it checks lease_generation against the worker's token",
        whyNot: "The fenced completion checks lease_generation against the worker's token; the takeover raised the generation, so it matches 0 rows.",
      },
    ],
    explanation:
      "A check of the id or of the state passes while the new owner is running the job, so the stale worker's completion lands. Only a check of the claim itself (Solid Queue's claim row, the lab's generation) refuses it.",
    sources: ['graphile-getjobs', 'oban-basic', 'river-job-sql', 'solid-queue'],
  },
  {
    id: 'q-graphile-169-order',
    kind: 'order',
    chapterId: 'production-queues',
    prompt: 'Put the events of graphile/worker #169, as the lab replays it, in order.',
    items: [
      { id: 'claim', label: 'At 15:00 A claims the 6-hour job' },
      { id: 'no-renewal', label: 'At 18:00 A is still working; nothing renews its lock', why: 'At 18:00 A is three hours into the job it claimed at 15:00.' },
      {
        id: 'reclaim',
        label: 'At 19:00:01 the lock is over 4 hours old, and B claims the job',
        why: "B may take the job only once A's lock is over 4 hours old.",
      },
      { id: 'both-work', label: 'A and B both call the model for it', why: 'Both can call the model for the job only once both have claimed it.' },
      {
        id: 'a-completes',
        label: 'A completes it by id while B is still running it',
        why: 'A completes while B is still running the job, so B has claimed it and started by then.',
      },
    ],
    explanation:
      'The lock age counts from the claim and nothing renews it, so a job longer than 4 hours is taken by a second worker while the first still runs, and the completion by id lets both finish it.',
    sources: ['graphile-169'],
  },
  {
    id: 'q-bug-state-guard',
    kind: 'bug',
    chapterId: 'production-queues',
    prompt:
      "This completion, like River's, checks only the job's state, so a worker whose job was rescued and claimed again still finishes it. Which line should check the worker's own claim instead?",
    sql: [
      'UPDATE runs',
      "SET status           = 'done',",
      '    result           = $2,',
      '    lease_expires_at = NULL',
      'WHERE run_id = $1',
      "  AND status = 'running'",
      'RETURNING status, result;',
    ].join('\n'),
    faultyLineContains: "AND status = 'running'",
    lineNotes: [
      { match: "SET status           = 'done'", note: 'Marking the run done is what a completion does.' },
      { match: 'result           = $2', note: 'Storing the result is what a completion does.' },
      { match: 'lease_expires_at = NULL', note: 'Clearing the lease of a finished run is harmless.' },
      { match: 'WHERE run_id = $1', note: 'Naming the run is right: every completion needs it.' },
      { match: 'RETURNING', note: 'Returning the new status and result changes nothing in the row.' },
    ],
    explanation:
      'The state says only that someone is running the job, and the new owner has made it running again. The write must check the claim this worker was given, for example AND lease_generation = $3, as src/sql/complete-fenced.sql does.',
    sources: ['river-job-sql'],
  },
  {
    id: 'q-predict-long-job',
    kind: 'predict',
    generatorId: 'long-job',
    chapterId: 'production-queues',
    explanation:
      "A horizon counted from the claim (graphile-worker's lock, Oban's rescue_after, pg-boss's expiry, River's rescuer) hands a job to a second worker once it outlives it, alive or not; a lease the running worker renews does not.",
  },
  {
    id: 'q-predict-late-finish',
    kind: 'predict',
    generatorId: 'late-finish',
    chapterId: 'production-queues',
    explanation:
      'A completion that checks only the id lands; one that checks only the state lands unless the new owner has already finished; one that checks the claim (a generation, a claim row) never lands for a stale worker.',
  },
];

export function findQuestion(id: string): QuizQuestion | undefined {
  return QUIZ.find((question) => question.id === id);
}

/** The correct choice ids of a single or multiple choice question. */
export function correctChoiceIds(question: QuizQuestion): string[] {
  if (question.kind !== 'single' && question.kind !== 'multiple') return [];
  return question.choices.filter((choice) => choice.correct === true).map((choice) => choice.id);
}

/** The 1-based faulty line of a spot-the-bug question, or null if its marker is ambiguous. */
export function faultyLine(question: QuizQuestion): number | null {
  return question.kind === 'bug' ? uniqueLine(question.sql, question.faultyLineContains) : null;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x)) && new Set(a).size === a.length;
}

/** Whether an answer is right. A predict answer carries the engine's answer with it. */
export function isCorrect(question: QuizQuestion, answer: QuizAnswer): boolean {
  switch (question.kind) {
    case 'single':
      return answer.kind === 'single' && correctChoiceIds(question).includes(answer.choiceId);
    case 'multiple':
      return answer.kind === 'multiple' && sameSet(answer.choiceIds, correctChoiceIds(question));
    case 'order':
      return answer.kind === 'order' && answer.itemIds.length === question.items.length && answer.itemIds.every((id, i) => question.items[i]!.id === id);
    case 'bug':
      return answer.kind === 'bug' && answer.line === faultyLine(question);
    case 'predict':
      return answer.kind === 'predict' && answer.correctChoiceId !== null && answer.choiceId === answer.correctChoiceId;
  }
}

/**
 * What a learner who answered wrong is told: why the answer they gave is wrong, and nothing that marks a
 * right choice (no right label, no position an event belongs at, no faulty line). Only a right answer
 * gets the question's explanation, which names the answer. Empty for a right answer and for predict
 * questions (the engine's run of that instance is their feedback; a retry brings new parameters).
 */
export function whyWrong(question: QuizQuestion, answer: QuizAnswer): string[] {
  if (isCorrect(question, answer)) return [];
  switch (question.kind) {
    case 'single':
      return answer.kind === 'single' ? singleWhyWrong(question, answer.choiceId) : [];
    case 'multiple':
      return answer.kind === 'multiple' ? multipleWhyWrong(question, answer.choiceIds) : [];
    case 'order':
      return answer.kind === 'order' ? orderWhyWrong(question, answer.itemIds) : [];
    case 'bug':
      return answer.kind === 'bug' ? bugWhyWrong(question, answer.line) : [];
    case 'predict':
      return [];
  }
}

function singleWhyWrong(question: SingleChoiceQuestion, choiceId: string): string[] {
  const chosen = question.choices.find((choice) => choice.id === choiceId);
  return chosen?.whyNot ? [chosen.whyNot] : [];
}

function multipleWhyWrong(question: MultipleChoiceQuestion, choiceIds: readonly string[]): string[] {
  const falseTicks = question.choices.filter((choice) => choiceIds.includes(choice.id) && choice.whyNot !== undefined);
  const lines = falseTicks.map((choice) => `"${choice.label}" is not true. ${choice.whyNot}`);
  const missed = question.choices.some((choice) => choice.correct && !choiceIds.includes(choice.id));
  if (missed)
    lines.push(falseTicks.length > 0 ? 'And at least one statement you left unticked is true.' : 'At least one statement you left unticked is true as well.');
  return lines;
}

/**
 * The first event the learner put too early: the earliest in their order with an event after it that
 * must come before it. It names that pair, which is why the answer is wrong, not where anything belongs.
 */
export function tooEarly(question: OrderQuestion, itemIds: readonly string[]): { early: OrderQuestion['items'][number]; needs: Choice } | null {
  const rank = (id: string) => question.items.findIndex((item) => item.id === id);
  for (let i = 0; i < itemIds.length; i++) {
    const later = itemIds.slice(i + 1).filter((id) => rank(id) < rank(itemIds[i]!));
    if (later.length === 0) continue;
    // The nearest of its prerequisites that the learner placed after it.
    const needs = later.reduce((best, id) => (rank(id) > rank(best) ? id : best));
    return { early: question.items[rank(itemIds[i]!)]!, needs: question.items[rank(needs)]! };
  }
  return null;
}

function orderWhyWrong(question: OrderQuestion, itemIds: readonly string[]): string[] {
  const found = tooEarly(question, itemIds);
  if (!found) return ['Every event must appear once.'];
  const why = found.early.why ? ` ${found.early.why}` : '';
  return [`"${found.early.label}" comes too early: it cannot happen before "${found.needs.label}".${why}`];
}

function bugWhyWrong(question: SpotTheBugQuestion, line: number): string[] {
  const text = sqlLines(question.sql)[line - 1] ?? '';
  const note = question.lineNotes.find((n) => uniqueLine(question.sql, n.match) === line)?.note;
  return [`Line ${line}${text.trim() ? `, "${text.trim()}",` : ''} is not the faulty one. ${note ?? 'It does its part as written.'}`];
}

/** A 32-bit seed from the learner's seed, a question and an attempt (FNV-1a over their text). */
function choiceSeed(learnerSeed: number, questionId: string, attempt: number): number {
  return fnv1a(`${learnerSeed >>> 0}/${questionId}/${attempt}`);
}

/**
 * The order a single or multiple choice question shows its choices in: shuffled per learner and attempt,
 * the same on every reload (the learner's seed is saved with their progress). The data lists the right
 * answer first; only the order on screen changes, and answers are kept by choice id.
 */
export function displayedChoices<C extends Choice>(question: { id: string; choices: readonly C[] }, learnerSeed: number, attempt: number): C[] {
  return shuffled(seededRandom(choiceSeed(learnerSeed, question.id, attempt)), question.choices);
}

/** The order an ordering question starts in: shuffled, stable per question, never already correct. */
export function initialOrder(question: OrderQuestion, attempt = 0): Choice[] {
  let seed = attempt * 131;
  for (const char of question.id) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const items = shuffled(seededRandom(seed), question.items);
  if (items.every((item, i) => item.id === question.items[i]!.id) && items.length > 1) items.push(items.shift()!);
  return items;
}

/** How many questions of each kind, for the quiz's header. */
export function countByKind(questions: readonly QuizQuestion[] = QUIZ): Record<QuizQuestion['kind'], number> {
  const counts = { single: 0, multiple: 0, order: 0, bug: 0, predict: 0 };
  for (const question of questions) counts[question.kind]++;
  return counts;
}
