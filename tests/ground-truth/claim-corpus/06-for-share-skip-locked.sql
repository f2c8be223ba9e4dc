-- variant: FOR SHARE SKIP LOCKED in the CTE
-- role: claim
-- a: 121@2
-- b-waits: no
-- b-after-commit: 123@1
-- b-after-rollback: 123@1
-- predict: yes
-- why: A's row is locked in a conflicting mode, so B skips it
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  FOR SHARE SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
