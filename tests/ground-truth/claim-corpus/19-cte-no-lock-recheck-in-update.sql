-- variant: no lock in the CTE, the UPDATE re-checks the row
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: none
-- b-after-rollback: 121@2
-- predict: yes
-- why: no double claim, but B gets nothing while 123 waits
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
FROM candidate
WHERE runs.run_id = candidate.run_id
  AND (runs.status = 'pending' OR (runs.status = 'running' AND runs.lease_expires_at < now()))
RETURNING runs.run_id, runs.lease_generation, runs.lease_expires_at, runs.cancel_requested;
