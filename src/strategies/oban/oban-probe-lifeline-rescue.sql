SELECT run_id FROM runs
WHERE status = 'running'
  AND lease_expires_at < now()
FOR UPDATE NOWAIT;
