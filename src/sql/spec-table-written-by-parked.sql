-- Whether a parked transaction (pid null in pg_locks: a prepared one, another session's) has written the
-- table $1 (its oid), whose uncommitted keys an insert into a unique index would wait for
-- (src/db/pglite-spec.ts). Apart from spec-table-hazards.sql: reading pg_locks was ~40 % of that query, and
-- only an insert or a key update into a table with a unique index needs it.
SELECT EXISTS (
  SELECT 1 FROM pg_locks AS l WHERE l.relation = $1::oid AND l.pid IS NULL AND l.mode = 'RowExclusiveLock'
) AS written_by_parked;
