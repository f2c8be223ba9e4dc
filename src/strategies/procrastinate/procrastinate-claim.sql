-- Follows procrastinate-org/procrastinate@f099a75:procrastinate/sql/schema.sql (procrastinate_fetch_job_v2):
-- a CTE picks the first todo job FOR UPDATE OF jobs SKIP LOCKED, then an UPDATE sets status doing and
-- the worker_id. A worker heartbeats every 10 seconds; a doing job whose worker's heartbeat is older
-- than 30 seconds is stalled (procrastinate/sql/queries.sql, select_stalled_jobs_by_heartbeat), and is
-- retried only by a task the user schedules (get_stalled_jobs, then retry_job). The lab folds that
-- retry into this claim: lease_expires_at is the last heartbeat + the stall age ($2 seconds).
WITH candidate AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE OF runs SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
FROM candidate
WHERE run_id = candidate.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
