UPDATE runs
SET heartbeat_at     = now(),
    lease_expires_at = now() + make_interval(secs => $4)
WHERE run_id = $1
  AND lease_owner = $2
  AND lease_generation = $3
RETURNING lease_expires_at, cancel_requested;
