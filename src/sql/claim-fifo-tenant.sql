-- FIFO with limits: the oldest pending run, and only that one. When its tenant is at its limit
-- nothing is claimed, so every run behind it waits, whichever tenant it belongs to.
WITH head AS (
  SELECT run_id, tenant
  FROM runs
  WHERE status = 'pending'
  ORDER BY created_at, run_id
  LIMIT 1
)
UPDATE runs
SET status      = 'running',
    lease_owner = $1,
    claimed_at  = now()
FROM head
WHERE runs.run_id = head.run_id
  AND runs.status = 'pending'
  AND (SELECT count(*) FROM runs WHERE status = 'running') < $2
  AND (SELECT count(*) FROM runs WHERE status = 'running' AND tenant = head.tenant) < $3
RETURNING runs.run_id, runs.tenant, runs.work_steps,
          extract(epoch FROM now() - runs.created_at)::integer AS waited_seconds;
