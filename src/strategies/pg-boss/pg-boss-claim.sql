-- Follows timgit/pg-boss@55ee32f:src/plans.ts (fetchNextJob): a "next" CTE of jobs not yet active, in
-- order, FOR UPDATE SKIP LOCKED, then an UPDATE ... FROM it sets state active, started_on and
-- heartbeat_on. A job expires expireInSeconds after started_on (15 minutes by default): pg-boss's
-- maintenance (failJobsByTimeout) fails it, to be retried. The lab folds that expiry into this claim:
-- lease_expires_at is started_on + expireInSeconds ($2 seconds), and a heartbeat does not move it.
WITH next AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
FROM next
WHERE run_id = next.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
