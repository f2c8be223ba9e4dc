-- variant: UPDATE … WHERE run_id = (SELECT min(run_id) … pending)
-- role: claim
-- a: 123@1
-- b-waits: yes
-- b-after-commit: 123@2
-- b-after-rollback: 123@1
-- predict: yes
-- why: an aggregate sub-select cannot lock; both take 123: a double claim
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id = (SELECT min(run_id) FROM runs WHERE status = 'pending')
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
