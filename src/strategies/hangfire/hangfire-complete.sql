-- Follows HangfireIO/Hangfire@57dee46:src/Hangfire.Core/Server/Worker.cs: once the job returns, the worker
-- changes its state to Succeeded with the expected states { Processing }, compared by name only, with no
-- check of which server or worker set Processing, so a job a second fetch moved to Processing again still
-- passes. Hangfire.PostgreSql then removes the queue entry (by id and, since PR #353, fetchedat), which the
-- lab does not model apart. Here Processing is a running run.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status = 'running'
RETURNING status, result;
