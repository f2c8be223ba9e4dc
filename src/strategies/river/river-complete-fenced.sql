-- The lab's generation fence on the completion, with the check River added in PR #141
-- (riverqueue/river@0132e53:riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql, JobSetStateIfRunningMany,
-- its should_cancel column): a job whose cancel was attempted while it ran is finalized as cancelled.
-- River applies that check only to a job about to be retried or scheduled again; a job that returns
-- success is completed as usual. The lab's jobs never fail, so here it guards the completion itself:
-- a run whose cancel_requested is set is finalized as cancelled, with no result.
UPDATE runs
SET status           = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'done' END,
    result           = CASE WHEN cancel_requested THEN result ELSE $3 END,
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
RETURNING status, result;
