-- variant: UPDATE with no finder: every claimable run
-- role: claim
-- a: 121@2,123@1,124@1
-- b-waits: yes
-- b-after-commit: none
-- b-after-rollback: 121@2,123@1,124@1
-- predict: yes
-- why: A takes every run; B waits on A's rows and finds none still claimable
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
