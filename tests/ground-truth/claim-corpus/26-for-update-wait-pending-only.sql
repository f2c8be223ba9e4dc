-- variant: FOR UPDATE, waiting, pending runs only
-- role: claim
-- a: 123@1
-- b-waits: yes
-- b-after-commit: 124@1
-- b-after-rollback: 123@1
-- predict: yes
-- why: B waits on 123, re-checks it and takes 124, which it had found before waiting
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
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
