-- The lab's cancel acknowledgement with graphile-worker's completion guard: the id only.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status;
