UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
  AND status = 'running'
RETURNING status;
