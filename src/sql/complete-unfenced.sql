UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status = 'running'
RETURNING status, result;
