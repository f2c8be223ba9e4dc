-- The lab's cancel acknowledgement with procrastinate's finish guard: an aborted job is finished the
-- same way (procrastinate_finish_job_v1, end status aborted): id, and status todo or doing.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
  AND status IN ('pending', 'running')
RETURNING status;
