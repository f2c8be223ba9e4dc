-- Follows procrastinate-org/procrastinate@f099a75:procrastinate/sql/schema.sql (procrastinate_finish_job_v1):
-- the end status is written where the id matches and the status is todo or doing, with no check of
-- which worker holds the job (the lab's pending and running).
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status IN ('pending', 'running')
RETURNING status, result;
