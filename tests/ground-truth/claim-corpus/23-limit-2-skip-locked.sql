-- variant: FOR UPDATE SKIP LOCKED LIMIT 2
-- role: claim
-- a: 121@2,123@1
-- b-waits: no
-- b-after-commit: 124@1
-- b-after-rollback: 124@1
-- predict: yes
-- why: a batch claim: two runs each
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 2
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
