-- Follows riverqueue/river PR #1373 (JobRescueMany, fixing issue #1302): the write re-checks that the job
-- is still running with the attempt the fetch saw (River compares attempted_at with the stuck horizon; the
-- lab's attempt is lease_generation, $2), so a job completed or claimed again since is left alone.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE run_id = $1
  AND status = 'running'
  AND lease_generation = $2
RETURNING run_id, status;
