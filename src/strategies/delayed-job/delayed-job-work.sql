-- delayed_job records no progress; the lab's progress write takes the same guard as its completion
-- (collectiveidea/delayed_job@eaef62d:lib/delayed/worker.rb, job.destroy): the job's id, nothing else.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
