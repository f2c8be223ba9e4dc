-- procrastinate records no progress; the lab's progress write takes the guard of its completion
-- (procrastinate_finish_job_v1): the id and status todo or doing, with no worker check.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
  AND status IN ('pending', 'running')
RETURNING progress, cancel_requested;
