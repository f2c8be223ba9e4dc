-- variant: FOR KEY SHARE in the CTE
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 121@3
-- b-after-rollback: 121@2
-- predict: yes
-- why: KEY SHARE does not conflict with A's NO KEY UPDATE: B's finder takes 121 without waiting, its UPDATE waits, then re-checks only the join: a double claim
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  FOR KEY SHARE
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
