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

/** Why PGlite runs every claim at READ COMMITTED: the reason, in the words the CLI and the page both give. */
export const PGLITE_HAS_ONE_SESSION = "PGlite is one session and cannot hold two transactions' snapshots at once";

/** Why a level above READ COMMITTED cannot run on PGlite, and where it can: one line. */
export function needsServerLine(level: StrictIsolation): string {
  return `--isolation ${level} needs a real PostgreSQL server: ${PGLITE_HAS_ONE_SESSION}; run it with --db postgres://…`;
}

/**
 * What a strict level changes in a claim's reading, which the analyzer gives as at READ COMMITTED: one line,
 * true on PostgreSQL (a row changed by a transaction that committed after this one's snapshot cannot be
 * locked or updated: 40001; SERIALIZABLE also fails a transaction whose reads another's writes made stale).
 */
export function strictReadingLine(level: StrictIsolation): string {
  const words = ISOLATION_WORDS[level];
  const commit = level === 'serializable' ? '; a COMMIT can also fail 40001 when another transaction wrote what this one read' : '';
  return `(that reading is READ COMMITTED's: at ${words} an UPDATE or a locking read whose row a transaction committed since its snapshot changed fails 40001 instead of re-checking it, and the worker rolls back and claims again${commit})`;
}
