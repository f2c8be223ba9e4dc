-- Undoes one advisory call of a replayed statement (src/db/pglite-spec.ts): $1 the function to call
-- (pg_advisory_lock, pg_advisory_lock_shared, pg_advisory_unlock or pg_advisory_unlock_shared), $2 the
-- key as written (a bigint), or $2 and $3 (two ints). A session lock is no part of the transaction a
-- replay rebuilds: the backend still holds what the first run took, so the replay's own take is let go.
SELECT CASE
  WHEN $1 = 'pg_advisory_lock' AND $3::int IS NULL THEN pg_advisory_lock($2::bigint)::text
  WHEN $1 = 'pg_advisory_lock' THEN pg_advisory_lock($2::bigint::int, $3::int)::text
  WHEN $1 = 'pg_advisory_lock_shared' AND $3::int IS NULL THEN pg_advisory_lock_shared($2::bigint)::text
  WHEN $1 = 'pg_advisory_lock_shared' THEN pg_advisory_lock_shared($2::bigint::int, $3::int)::text
  WHEN $1 = 'pg_advisory_unlock' AND $3::int IS NULL THEN pg_advisory_unlock($2::bigint)::text
  WHEN $1 = 'pg_advisory_unlock' THEN pg_advisory_unlock($2::bigint::int, $3::int)::text
  WHEN $1 = 'pg_advisory_unlock_shared' AND $3::int IS NULL THEN pg_advisory_unlock_shared($2::bigint)::text
  WHEN $1 = 'pg_advisory_unlock_shared' THEN pg_advisory_unlock_shared($2::bigint::int, $3::int)::text
END AS done;
