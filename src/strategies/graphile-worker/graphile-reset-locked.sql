-- Follows graphile/worker@abfb4cf:src/sql/resetLockedAt.ts, which a worker pool runs on a timer (every 8
-- to 10 minutes by default): one UPDATE frees every job whose locked_at is more than 4 hours old, clearing
-- locked_at and locked_by so that any worker's getJobs takes it again. It asks nothing of the worker that
-- locked it, which may still be running it. Here that is a running run whose lease_expires_at (lock time
-- + lock age) has passed, back to pending.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE status = 'running'
  AND lease_expires_at < now()
RETURNING run_id, status;
