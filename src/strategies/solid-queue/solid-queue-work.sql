-- Solid Queue records no progress; the lab's progress write takes the guard its completion had before
-- the claimed-execution check (see solid-queue-complete.sql): the job's id.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
