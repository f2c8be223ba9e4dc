-- Follows riverqueue/river@fdf6cdf:riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql (JobGetAvailable):
-- a CTE of available jobs in order, FOR UPDATE SKIP LOCKED, then an UPDATE ... FROM it sets state
-- running, attempt + 1, attempted_at and attempted_by. River has no lease column: its rescuer
-- (JobGetStuck, JobRescueMany) takes running jobs whose attempted_at is older than RescueStuckJobsAfter
-- (1 hour by default) and makes them retryable. The lab folds that rescue into this claim:
-- lease_expires_at is attempted_at + RescueStuckJobsAfter ($2 seconds), and nothing moves it.
WITH locked_jobs AS (
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
FROM locked_jobs
WHERE run_id = locked_jobs.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
