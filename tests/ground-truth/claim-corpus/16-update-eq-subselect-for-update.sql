-- variant: UPDATE … WHERE run_id = (SELECT … LIMIT 1 FOR UPDATE)
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 123@1
-- b-after-rollback: 121@2
-- predict: yes
-- why: a scalar sub-select runs once; its lock re-checks 121 after the wait and moves on to 123
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id = (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
  FOR UPDATE
)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
