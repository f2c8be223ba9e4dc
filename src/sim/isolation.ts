/**
 * The transaction isolation levels a claim can run at, and their words: the one home for both.
 *
 * READ COMMITTED is the lab's own way of running a claim, and the default: each statement of a
 * select-then-update claim is a transaction of its own, and the atomic claim's transaction stays open
 * until its commit step. At REPEATABLE READ and SERIALIZABLE the claim runs as production code writes it
 * there: an explicit transaction (BEGIN ISOLATION LEVEL …) around the whole claim, and a retry when the
 * server answers 40001. Those levels need two snapshots at once, so they run on a real server only.
 */

export const ISOLATION_LEVELS = ['read-committed', 'repeatable-read', 'serializable'] as const;

export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

/** A level above READ COMMITTED: the claim runs in an explicit transaction and retries on 40001. */
export type StrictIsolation = Exclude<IsolationLevel, 'read-committed'>;

/** The level as PostgreSQL spells it. */
export const ISOLATION_WORDS: Record<IsolationLevel, string> = {
  'read-committed': 'READ COMMITTED',
  'repeatable-read': 'REPEATABLE READ',
  serializable: 'SERIALIZABLE',
};

export function isIsolationLevel(text: string): text is IsolationLevel {
  return (ISOLATION_LEVELS as readonly string[]).includes(text);
}

/** Why a level above READ COMMITTED cannot run on PGlite, and where it can: one line. */
export function needsServerLine(level: StrictIsolation): string {
  return `--isolation ${level} needs a real PostgreSQL server: PGlite is one session and cannot hold two transactions' snapshots at once; run it with --db postgres://…`;
}
