-- Follows timgit/pg-boss@55ee32f:src/plans.ts (failJobsByTimeout), which pg-boss's supervisor runs on a
-- timer (superviseIntervalSeconds, 60 s by default): one statement fails every active job whose
-- started_on + expire_seconds has passed, deleting it and inserting it again in state retry while it has
-- retries left (failed once it has none; the lab has no retry limit). Nothing tells the worker still
-- running it, and the expiry counts from the start, so a touch does not move it. Here that is a running
-- run whose lease_expires_at (started_on + expireInSeconds) has passed, back to pending: the retry.
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL
WHERE status = 'running'
  AND lease_expires_at < now()
RETURNING run_id, status;
