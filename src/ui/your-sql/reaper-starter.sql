UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL
WHERE status = 'running'
  AND lease_expires_at < now()
