-- variant: FOR UPDATE SKIP LOCKED without LIMIT
-- role: claim
-- a: 121@2,123@1,124@1
-- b-waits: no
-- b-after-commit: none
-- b-after-rollback: none
-- predict: yes
-- why: A claims every claimable run in one go
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  FOR UPDATE SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
