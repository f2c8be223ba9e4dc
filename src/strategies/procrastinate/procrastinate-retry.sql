-- Follows procrastinate-org/procrastinate@f099a75:procrastinate/sql/schema.sql (procrastinate_retry_job_v1,
-- behind JobManager.retry_job): a job still doing goes back to todo (pending here), its worker cleared.
-- procrastinate's own check is status = 'doing' and nothing about which attempt it is.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE run_id = $1
  AND status = 'running'
RETURNING run_id, status;
