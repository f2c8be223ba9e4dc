-- variant: SKIP LOCKED without ORDER BY
-- role: claim
-- a: 124@1
-- b-waits: no
-- b-after-commit: 123@1
-- b-after-rollback: 123@1
-- predict: refuse
-- why: the scan meets rows in their physical order (124 was inserted first), not oldest first
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
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
