-- Follows janbjorge/pgqueuer@0aa3dde:pgqueuer/qb.py (build_log_job_query): a finished job is deleted
-- from the queue by id only and logged, so it lands whoever picked the job last. The lab marks the run
-- done instead of deleting it, with the same guard: the id.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status, result;
