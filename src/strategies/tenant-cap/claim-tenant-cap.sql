-- The atomic claim with a cap of one running run per tenant, counted inside the claim. The count reads
-- committed rows only: a claim still open in another transaction is not counted (see the level "Break the tenant cap").
WITH busy AS (
  SELECT tenant, count(*) AS active
  FROM runs
  WHERE status = 'running' AND lease_expires_at >= now()
  GROUP BY tenant
), candidate AS (
  SELECT r.run_id
  FROM runs r
  LEFT JOIN busy b USING (tenant)
  WHERE (r.status = 'pending'
         OR (r.status = 'running' AND r.lease_expires_at < now()))
    AND coalesce(b.active, 0) < 1
  ORDER BY r.created_at
  LIMIT 1
  FOR UPDATE OF r SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id IN (SELECT run_id FROM candidate)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
