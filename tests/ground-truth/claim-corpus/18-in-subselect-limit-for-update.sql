-- variant: lock-taking LIMIT in an IN (…) sub-select rather than a CTE
-- role: claim
-- a: 121@2
-- b-waits: no
-- b-after-commit: 123@1
-- b-after-rollback: 123@1
-- predict: refuse
-- why: here the planner ran the sub-select once; with another plan it may run it per row and claim more than one
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
