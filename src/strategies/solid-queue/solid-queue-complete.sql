-- Solid Queue's completion before it checked its own claim (rails/solid_queue issue #589, fixed in
-- v1.5.0): the job marked finished by id, whether or not this worker's claimed execution still existed.
-- Fencing on plays the guard at rails/solid_queue@29e818d:app/models/solid_queue/claimed_execution.rb
-- (finalize): lock this claimed execution's row and do nothing if it is gone.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status, result;
