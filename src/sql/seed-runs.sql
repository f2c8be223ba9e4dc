INSERT INTO runs (run_id, tenant, status, lease_owner, lease_expires_at, lease_generation,
                  heartbeat_at, cancel_requested, created_at, progress, cost_cents, result)
SELECT run_id, tenant, status, lease_owner, lease_expires_at, lease_generation,
       heartbeat_at, cancel_requested, created_at, progress, cost_cents, result
FROM jsonb_to_recordset($1::jsonb) AS seed(
  run_id integer, tenant text, status text, lease_owner text, lease_expires_at timestamptz,
  lease_generation integer, heartbeat_at timestamptz, cancel_requested boolean,
  created_at timestamptz, progress integer, cost_cents integer, result text
);
