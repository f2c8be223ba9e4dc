SELECT run_id FROM runs
WHERE run_id = $1
  AND status = 'pending'
FOR UPDATE NOWAIT;
