-- Follows graphile/worker@abfb4cf:src/sql/completeJobs.ts: completion deletes the job by id only, so it
-- succeeds whoever holds the lock now. The lab marks the run done instead of deleting it, with the
-- same guard: the id.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status, result;
