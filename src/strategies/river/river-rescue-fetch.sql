-- Follows riverqueue/river@fdf6cdf:riverdriver/riverpgxv5/internal/dbsqlc/river_job.sql (JobGetStuck):
-- the rescuer reads running jobs whose attempted_at is older than the stuck horizon, by id. Here that is
-- a running run whose lease_expires_at (attempted_at + RescueStuckJobsAfter) has passed. A plain read:
-- it locks nothing, so the job can still complete between this read and the rescuer's write.
SELECT run_id, lease_generation
FROM runs
WHERE status = 'running'
  AND lease_expires_at < now()
ORDER BY run_id
LIMIT 100;
