/** The console's example statements: each one a question a learner asks while stepping. */
export interface ConsolePreset {
  label: string;
  /** What the button's tooltip and accessible description say. */
  title: string;
  sql: string;
}

export const CONSOLE_PRESETS: readonly ConsolePreset[] = [
  {
    label: 'runs',
    title: 'The runs table, as committed at this step',
    sql: 'SELECT * FROM runs ORDER BY run_id;',
  },
  {
    label: 'pg_prepared_xacts',
    title: 'The parked workers: each open claim transaction, prepared so its row locks stay held',
    sql: `-- Each row is a worker's open transaction, parked with PREPARE TRANSACTION.
-- (Its "prepared" column is the wall clock, not the lab's, so it is left out.)
SELECT gid, transaction FROM pg_prepared_xacts ORDER BY gid;`,
  },
  {
    label: 'pg_locks',
    title: 'Locks on tables and transaction ids (row locks are kept in the rows themselves)',
    sql: `-- Table and transaction-id locks. A parked worker's locks have no pid: its prepared
-- transaction belongs to no session. Those with a pid are this console statement's own.
-- Row locks are not listed here: they are kept in the row (its xmax), see "who locks which run".
SELECT locktype, relation::regclass AS relation, transactionid, virtualtransaction, pid, mode, granted
FROM pg_locks
ORDER BY virtualtransaction, locktype;`,
  },
  {
    label: 'who locks which run',
    title: 'Which parked worker holds the row lock on which run',
    sql: `-- A locked (or updated) row carries its transaction's id in xmax.
SELECT p.gid AS worker_transaction, r.run_id, r.status
FROM pg_prepared_xacts AS p
JOIN runs AS r ON r.xmax = p.transaction
ORDER BY p.gid, r.run_id;`,
  },
  {
    label: 'claim (read-only)',
    title: "The atomic claim's row test as a read-only SELECT: which runs could the next claim take?",
    sql: `-- The atomic claim's row test, read-only. FOR UPDATE SKIP LOCKED needs a row lock,
-- which the read-only console cannot take; locked_by shows the rows SKIP LOCKED would pass over.
SELECT r.run_id, r.status, r.lease_expires_at, r.created_at, p.gid AS locked_by
FROM runs AS r
LEFT JOIN pg_prepared_xacts AS p ON r.xmax = p.transaction
WHERE r.status = 'pending'
   OR (r.status = 'running' AND r.lease_expires_at < now())
ORDER BY r.created_at;`,
  },
];
