-- Fair claim: the oldest pending run whose tenant is below its limit. Tenants at their limit are
-- skipped, so one tenant's backlog cannot hold up another tenant's run.
WITH active AS (
  SELECT tenant, count(*) AS running
  FROM runs
  WHERE status = 'running'
  GROUP BY tenant
), candidate AS (
  SELECT r.run_id
  FROM runs r
  LEFT JOIN active a ON a.tenant = r.tenant
  WHERE r.status = 'pending'
    AND coalesce(a.running, 0) < $3
  ORDER BY r.created_at, r.run_id
  LIMIT 1
)
UPDATE runs
SET status      = 'running',
    lease_owner = $1,
    claimed_at  = now()
FROM candidate
WHERE runs.run_id = candidate.run_id
  AND runs.status = 'pending'
  AND (SELECT count(*) FROM runs WHERE status = 'running') < $2
RETURNING runs.run_id, runs.tenant, runs.work_steps,
          extract(epoch FROM now() - runs.created_at)::integer AS waited_seconds;
