-- variant: reclaim without bumping the generation
-- role: claim
-- a: 121@1
-- b-waits: no
-- b-after-commit: 123@0
-- b-after-rollback: 123@0
-- predict: yes
-- why: A reclaims 121 at generation 1, the generation the expired worker still holds: its fenced writes still pass
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
