-- Follows timgit/pg-boss@55ee32f:src/plans.ts (touchJobs): heartbeat_on = now() where the id matches
-- and the job is active, with no owner check. It does not move the expiry (started_on +
-- expireInSeconds); with heartbeatSeconds set, pg-boss also fails a job whose heartbeat_on is too old
-- (failJobsByHeartbeat), which can only end ownership sooner.
UPDATE runs
SET heartbeat_at = now()
WHERE run_id = $1
  AND status = 'running'
RETURNING lease_expires_at, cancel_requested;
