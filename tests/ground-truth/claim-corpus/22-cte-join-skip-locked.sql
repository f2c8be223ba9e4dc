-- variant: the atomic claim written as UPDATE … FROM the CTE
-- role: claim
-- a: 121@2
-- b-waits: no
-- b-after-commit: 123@1
-- b-after-rollback: 123@1
-- predict: yes
-- why: the same as the lab's claim
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
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
FROM candidate
WHERE runs.run_id = candidate.run_id
RETURNING runs.run_id, runs.lease_generation, runs.lease_expires_at, runs.cancel_requested;
