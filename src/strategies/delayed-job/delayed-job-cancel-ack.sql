-- delayed_job has no cancel; the lab's cancel acknowledgement takes its completion's guard
-- (collectiveidea/delayed_job@eaef62d:lib/delayed/worker.rb, job.destroy): the id only.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status;
