SELECT run_id, tenant, status, lease_owner, lease_expires_at, lease_generation,
       heartbeat_at, cancel_requested, created_at, progress, cost_cents, result
FROM runs
ORDER BY run_id;
