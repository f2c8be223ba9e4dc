-- A claim that forgot to check the lease: it takes any running run too, not only one whose lease expired.
-- FOR UPDATE SKIP LOCKED keeps two claims from taking the same row at the same moment, but once the first
-- owner's claim has committed, the next claim finds that run unlocked and takes it from its live owner.
WITH candidate AS (
  SELECT run_id
  FROM runs
  WHERE status IN ('pending', 'running')
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
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
