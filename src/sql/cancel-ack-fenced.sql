UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
RETURNING status;
