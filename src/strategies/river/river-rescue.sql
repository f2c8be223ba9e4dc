-- Follows riverqueue/river@fdf6cdf:riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql (JobRescueMany),
-- before PR #1373: the job the fetch found is made retryable again, matched by id alone, whatever it
-- became since (issue #1302: a job completed after the fetch is overwritten). River sets retryable with a
-- backoff and appends an error; the lab has neither, so the run goes straight back to pending.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE run_id = $1
RETURNING run_id, status;
