-- variant: UPDATE … WHERE run_id = (SELECT … LIMIT 1) AND the row is still claimable
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: none
-- b-after-rollback: 121@2
-- predict: yes
-- why: the re-check on 121's new version fails: B claims nothing (safe, but it does not try 123)
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
)
  AND (status = 'pending' OR (status = 'running' AND lease_expires_at < now()))
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
