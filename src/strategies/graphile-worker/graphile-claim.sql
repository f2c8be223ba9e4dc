-- Follows graphile/worker@abfb4cf:src/sql/getJobs.ts: a CTE picks available jobs in order and locks
-- them FOR UPDATE SKIP LOCKED, then an UPDATE ... FROM that CTE records the owner and the lock time.
-- A lock older than the fixed lock age (4 hours in graphile-worker, $2 seconds here) is cleared by a
-- periodic reset (src/sql/resetLockedAt.ts); the lab folds that reset into this claim, so the run a
-- reset would free is claimable once lease_expires_at (lock time + lock age) has passed. Nothing ever
-- moves lease_expires_at: graphile-worker has no heartbeat.
WITH available AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
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
