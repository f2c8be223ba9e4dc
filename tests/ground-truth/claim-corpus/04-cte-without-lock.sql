-- variant: no locking clause in the CTE
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 121@3
-- b-after-rollback: 121@2
-- predict: yes
-- why: B's UPDATE waits on 121 and re-checks only run_id IN (the CTE's old rows): a double claim
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
