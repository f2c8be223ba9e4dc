-- Follows procrastinate-org/procrastinate@f099a75:procrastinate/sql/queries.sql (select_stalled_jobs_by_heartbeat,
-- behind JobManager.get_stalled_jobs): doing jobs whose worker has not heartbeated for the stall age. Here
-- that is a running run whose lease_expires_at (last heartbeat + stall age) has passed. A plain read.
SELECT run_id, lease_generation
FROM runs
WHERE status = 'running'
  AND lease_expires_at < now()
ORDER BY run_id;
