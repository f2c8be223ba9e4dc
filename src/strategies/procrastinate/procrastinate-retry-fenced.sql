-- procrastinate-retry.sql with the lab's fence: the retry also re-checks that the run is on the attempt
-- the stalled-job read saw (lease_generation, $2), which procrastinate does not.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE run_id = $1
  AND status = 'running'
  AND lease_generation = $2
RETURNING run_id, status;
