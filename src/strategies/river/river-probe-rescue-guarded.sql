SELECT run_id FROM runs
WHERE run_id = $1
  AND status = 'running'
  AND lease_generation = $2
FOR UPDATE NOWAIT;
