UPDATE runs
SET status           = 'running',
    lease_owner      = $2,
    lease_expires_at = now() + make_interval(secs => $3),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id = $1
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
