-- variant: UPDATE … WHERE run_id = (WITH … SELECT …), a WITH nested in the sub-select, no lock
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 121@3
-- b-after-rollback: 121@2
-- predict: refuse
-- why: the same as corpus 14: the sub-select's value is computed once, before the wait; the re-check of run_id = 121 passes: a double claim
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id = (
  WITH claimable AS (
    SELECT run_id, created_at
    FROM runs
    WHERE status = 'pending'
       OR (status = 'running' AND lease_expires_at < now())
  )
  SELECT run_id
  FROM claimable
  ORDER BY created_at
  LIMIT 1
)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
