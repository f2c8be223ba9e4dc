/**
 * Every shape the analyzer refuses, and why, as data: the analyzer names one of these, and the README's
 * list "Check your own claim — what the analyzer refuses" is printed from this table
 * (`node --import tsx src/sql/analyze/print-refusals.ts`).
 *
 * The lab runs a statement on PGlite, which is one session: it cannot wait for a lock, so it probes with
 * NOWAIT and later resumes a waiting statement the way PostgreSQL would (EvalPlanQual). A shape is refused
 * when the lab could not reproduce, on that one session, exactly what a real PostgreSQL 15 does with it.
 * A refused statement can still be checked on a real server (`npm run sim -- check … --db URL`).
 */
export const REFUSALS = {
  'several-statements':
    'more than one statement: the lab sends one statement per step (a SELECT … \\gset then the one UPDATE … RETURNING that uses its answer as :name is a claim in two statements, which npm run sim -- check … --claim FILE and the page’s Your SQL play: README “Check your own claim”)',
  'gset-not-a-select':
    '\\gset after a statement that is not a plain SELECT: psql keeps a SELECT’s one row as variables, and the lab reads the run’s id from it',
  'gset-variable':
    'the UPDATE uses :name that the \\gset did not set, or that it set from a column other than the row’s own run_id (SELECT run_id, or run_id AS id): the lab carries the run’s id alone from the SELECT to the UPDATE, as a parameter; :\'name\' and :"name" paste text, which the lab does not',
  'gset-lock':
    'a SELECT … \\gset whose lock the lab cannot carry into the UPDATE: FOR SHARE or FOR KEY SHARE (the UPDATE must strengthen it, and two workers that both hold it deadlock), a locking clause in its WITH query or sub-select, an advisory lock; on PGlite also a waiting FOR UPDATE without LIMIT 1 or whose rows depend on $1 or $2 (a real server plays that: --db URL)',
  'not-an-update':
    'the statement is not an UPDATE of runs: each role is one UPDATE … RETURNING, like the lab’s own file (a completion may instead DELETE its run; a reaper, check --reaper, needs no RETURNING)',
  'transaction-control': 'transaction control (BEGIN, COMMIT, SAVEPOINT, SET TRANSACTION, isolation levels): the lab opens and ends the transaction itself',
  isolation:
    'REPEATABLE READ or SERIALIZABLE: the lab opens each claim’s transaction and sets its level itself, READ COMMITTED on PGlite (one session, which cannot hold two transactions’ snapshots at once); on a real server, --isolation repeatable-read or serializable with --db URL runs your claim at that level',
  settings: 'SET / RESET / set_config: session settings would leak into every other worker, who share the one PGlite session',
  'table-lock': 'LOCK TABLE: the lab follows row locks, and a table lock would stop every other worker’s statement',
  'advisory-lock':
    'pg_try_advisory_lock on PGlite: PGlite is one backend playing every worker, so a session-level advisory lock one worker took is held by the very backend the next worker asks from, whose try-lock answers true where PostgreSQL’s answers false (a transaction-level one, pg_try_advisory_xact_lock, is played: the claim’s parked transaction holds it); a real server, one connection per worker, answers each worker’s try-lock itself: npm run sim -- check … --claim FILE --db postgres://USER@HOST/DATABASE',
  'advisory-server-only':
    'an advisory lock that waits (pg_advisory_lock, pg_advisory_xact_lock), a shared one (…_shared) or an unlock (pg_advisory_unlock…) on PGlite: PGlite is one backend playing every worker, so it grants at once a session-level lock another worker holds (the backend holds it already), waits forever for a transaction-level one the lab’s parked claim holds, and an unlock lets go of what that one backend holds, not one worker’s; a real server, one connection per worker, waits and unlocks for each worker itself: npm run sim -- check … --db postgres://USER@HOST/DATABASE',
  'wrong-target': 'the UPDATE changes a table other than runs: the lab has one table, runs',
  'other-table': 'reads a table other than runs (or a view, or a catalog): the lab has one table, runs',
  'data-modifying-cte': 'a WITH query that writes (INSERT / UPDATE / DELETE in a CTE): only the claim pattern, a CTE that reads, is reproduced',
  'recursive-cte': 'WITH RECURSIVE on PGlite: not a claim pattern the lab can follow through a lock wait there; a real server runs it (--db URL)',
  'set-returning': 'a function in FROM (set-returning): not a claim pattern the lab reproduces',
  function:
    'calls a function outside the lab’s list of those free of side effects and of the wall clock: now() (the lab’s clock), make_interval, extract, date_part, count, min, max, abs, lower, upper, length, concat, to_timestamp (coalesce, greatest and least are allowed too)',
  'qualified-name':
    'names an operator or a type in a schema other than pg_catalog (OPERATOR(schema.op), schema.type): the lab’s statements use PostgreSQL’s own, and one of yours would run code of yours (on a real server, in a schema the lab does not own)',
  'changes-key': 'changes run_id: the lab follows each run by its id (and an UPDATE of a key takes a stronger lock)',
  'parameter-out-of-contract': 'uses a parameter the role does not get',
  'parameter-gap': 'leaves out a parameter below one it uses: PostgreSQL cannot tell that parameter’s type (could not determine data type of parameter $n)',
  'returning-mismatch': 'RETURNING differs from the lab’s file for this role: the lab reads those columns back, in that order',
  'returning-not-the-row':
    'RETURNING hands back run_id, lease_generation or lease_expires_at as something other than the updated row’s own column (an expression, or another query’s column): the lab judges which run a worker holds, under which generation and until when, by those values, so each must be the row’s own (run_id, or runs.run_id)',
  'delete-returning':
    'a DELETE completion returns nothing, or run_id alone: the row is gone, so the lab judges the completion by how many rows it deleted (1: the worker completed the run; 0: its write missed), not by columns read back',
  'returning-old-new': 'RETURNING old/new is PostgreSQL 18 syntax; the lab and live mode target PostgreSQL 15',
  'several-locking-clauses': 'more than one locking clause: the lab follows one lock-taking finder through a wait',
  'locking-join': 'a locking clause on a query that reads more than runs alone: after a wait the lab re-checks one row of runs at a time',
  'locking-with-sub-select':
    'a locking finder whose WHERE has its own sub-select: after a wait PostgreSQL re-checks the row with that sub-select read as before the wait (the statement’s snapshot), which the lab’s relock, a new statement, cannot replay',
  'locking-in-in-list':
    'a lock-taking sub-select inside IN (…): PostgreSQL may run it once per row it joins (plan-dependent), locking and returning more rows than its LIMIT; write it as a CTE',
  'locking-correlated': 'a lock-taking sub-select that refers to the outer row: it runs once per row, and what it locks depends on the plan',
  'locking-aggregate': 'a locking clause with GROUP BY, DISTINCT, an aggregate or UNION / INTERSECT / EXCEPT: PostgreSQL rejects it, so the lab does too',
  'key-share-finder':
    'FOR KEY SHARE in the finder: it does not conflict with the lock an UPDATE holds (FOR NO KEY UPDATE), so the statement waits at its UPDATE still holding the row its finder found (on a real server: one run claimed twice), and the lab cannot replay that wait',
  'cannot-resume':
    'after a wait PostgreSQL re-checks the row against what the statement read before waiting, and the lab cannot carry that over for this shape on PGlite (it runs with --db URL)',
  'where-current-of': 'WHERE CURRENT OF a cursor: the lab has no cursor',
  'no-where': 'an UPDATE or DELETE without WHERE changes every run',
} as const;

/** The functions a statement may call (checked by ./analyze.ts; named in the `function` refusal above). */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([
  'now',
  'make_interval',
  'extract',
  'date_part',
  'count',
  'min',
  'max',
  'abs',
  'lower',
  'upper',
  'length',
  'concat',
  'to_timestamp',
]);

export type RefusalId = keyof typeof REFUSALS;

/**
 * The refusals of the engine alone: PostgreSQL runs these shapes, and a check on a real server (`--db`)
 * plays them (analyze.ts gives their shape with engineRefusals: false). Every other refusal is the lab's
 * model (one UPDATE of runs per role), on any database.
 */
export const ENGINE_ONLY_REFUSALS: ReadonlySet<RefusalId> = new Set<RefusalId>([
  'key-share-finder',
  'cannot-resume',
  'advisory-lock',
  'advisory-server-only',
  'recursive-cte',
]);

/** Engine-only refusals whose reason itself gives the command that checks the statement on a server (the page adds no hint). */
export const NAMES_ITS_CHECK: ReadonlySet<RefusalId> = new Set<RefusalId>(['advisory-lock', 'advisory-server-only']);

export interface Refusal {
  id: RefusalId;
  reason: string;
}

export function refusal(id: RefusalId, detail?: string): Refusal {
  return { id, reason: detail ? `${REFUSALS[id]} (${detail})` : REFUSALS[id] };
}
