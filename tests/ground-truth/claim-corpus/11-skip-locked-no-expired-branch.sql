-- variant: SKIP LOCKED without the expired-lease branch
-- role: claim
-- a: 123@1
-- b-waits: no
-- b-after-commit: 124@1
-- b-after-rollback: 124@1
-- predict: yes
-- why: nobody ever reclaims 121, whose worker is gone
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
  ORDER BY created_at
  LIMIT 1
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
