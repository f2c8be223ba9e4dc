-- pgqueuer records no progress; the lab's progress write takes the same guard as its completion
-- (janbjorge/pgqueuer@0aa3dde:pgqueuer/qb.py, build_log_job_query): the job's id, nothing else.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
