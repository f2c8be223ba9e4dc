-- Follows oban-bg/oban@2939e31:lib/oban/engines/basic.ex (rescue_jobs), which the Lifeline plugin runs on
-- a timer: one UPDATE of every executing job whose attempted_at is older than rescue_after sets it back
-- to available (a job out of attempts is discarded by a second UPDATE; the lab has no attempt limit). No
-- read comes first and nothing asks whether the job's worker is still running it: purely on time. Here
-- that is a running run whose lease_expires_at (attempted_at + rescue_after) has passed.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE status = 'running'
  AND lease_expires_at < now()
RETURNING run_id, status;
