-- Follows riverqueue/river@fdf6cdf:riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql (JobGetAvailable),
-- as river-claim.sql does, but with the rescue left to River's rescuer (river-rescue-fetch.sql, then
-- river-rescue.sql): this claim takes available jobs only, pending here. lease_expires_at is
-- attempted_at + RescueStuckJobsAfter ($2 seconds): the moment the rescuer may call the job stuck.
WITH locked_jobs AS (
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
FROM locked_jobs
WHERE run_id = locked_jobs.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
