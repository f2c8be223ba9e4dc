-- Follows rails/solid_queue@29e818d:app/models/solid_queue/claimed_execution.rb (finalize, since v1.5.0
-- for issue #589): lock this claim's own claimed-execution row and do nothing if it is gone. One row per
-- claim: here the claim's generation on a run that is still running, so a claim the pruner failed, or
-- another worker's claim, matches no row.
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
  AND status = 'running'
RETURNING status, result;
