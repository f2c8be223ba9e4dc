-- Oban records no progress; the lab's progress write takes the same guard as Oban's completion
-- (oban-bg/oban@2939e31:lib/oban/engines/basic.ex, complete_job): the job's id, nothing else.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
