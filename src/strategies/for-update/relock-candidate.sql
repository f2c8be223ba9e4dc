-- A waiting FOR UPDATE claim resumes by locking, one by one, the rows it had found, re-checking each:
-- the lock stays even when the row no longer qualifies.
SELECT run_id,
       (status = 'pending' OR (status = 'running' AND lease_expires_at < now())) AS qualifies
FROM runs
WHERE run_id = $1
FOR UPDATE NOWAIT;
