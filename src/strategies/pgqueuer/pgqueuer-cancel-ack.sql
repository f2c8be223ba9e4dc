-- The lab's cancel acknowledgement with pgqueuer's completion guard
-- (janbjorge/pgqueuer@0aa3dde:pgqueuer/qb.py, build_log_job_query): the id only.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status;
