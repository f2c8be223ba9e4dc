-- Follows graphile/worker@abfb4cf:src/sql/getJobs.ts, as graphile-claim.sql does, but with the stale-lock
-- reset left to its own pass (graphile-reset-locked.sql, on a timer): like getJobs, this claim takes only
-- available jobs, ones no worker has locked, pending here. lease_expires_at is the lock time + the lock
-- age ($2 seconds): the moment the reset may free the lock. Nothing ever moves it.
WITH available AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = NULL
FROM available
WHERE run_id = available.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
