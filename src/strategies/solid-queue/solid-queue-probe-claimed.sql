SELECT run_id FROM runs
WHERE run_id = $1
  AND lease_generation = $2
  AND status = 'running'
FOR UPDATE NOWAIT;
