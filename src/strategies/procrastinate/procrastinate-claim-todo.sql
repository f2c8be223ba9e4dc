-- Follows procrastinate-org/procrastinate@f099a75:procrastinate/sql/schema.sql (procrastinate_fetch_job_v2),
-- as procrastinate-claim.sql does, but with the stalled-job retry left to the task that does it
-- (procrastinate-stalled-fetch.sql, then procrastinate-retry.sql): this fetch takes todo jobs only,
-- pending here. lease_expires_at is the last heartbeat + the stall age ($2 seconds).
WITH candidate AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE OF runs SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
FROM candidate
WHERE run_id = candidate.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
