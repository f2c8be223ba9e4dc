-- Every run a claim could take, in the order it looks at them. A plain FOR UPDATE claim that has to wait
-- keeps this list, as it was when it started waiting, for the rest of its run.
SELECT run_id
FROM runs
WHERE status = 'pending'
   OR (status = 'running' AND lease_expires_at < now())
ORDER BY created_at;
