-- Follows collectiveidea/delayed_job@eaef62d:lib/delayed/worker.rb (run: job.destroy once the job
-- returns): completion deletes the job by id only, checking neither locked_by nor locked_at, so every
-- worker that ran it completes it. The lab marks the run done instead of deleting it, with the same
-- guard: the id.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status, result;
