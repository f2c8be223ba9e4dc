SELECT run_id, lease_generation
FROM runs
WHERE status = 'pending'
ORDER BY created_at
LIMIT 1;
