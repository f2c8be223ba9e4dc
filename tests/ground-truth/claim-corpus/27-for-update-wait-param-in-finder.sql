-- variant: FOR UPDATE in the CTE, waiting, never a run this worker itself held ($1 in the finder)
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 123@1
-- b-after-rollback: 121@2
-- predict: yes
-- why: as 02; the finder uses $1, so its derived candidates and relock take the worker as $1 and the run as $2
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now() AND (lease_owner IS NULL OR lease_owner <> $1))
  ORDER BY created_at
  LIMIT 1
  FOR UPDATE
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
