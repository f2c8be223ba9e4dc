UPDATE runs
SET heartbeat_at     = now(),
    lease_expires_at = now() + make_interval(secs => $3)
WHERE run_id = $1
  AND lease_owner = $2
RETURNING lease_expires_at, cancel_requested;
