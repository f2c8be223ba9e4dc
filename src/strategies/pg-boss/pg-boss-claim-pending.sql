-- Follows timgit/pg-boss@55ee32f:src/plans.ts (fetchNextJob), as pg-boss-claim.sql does, but with the
-- expiry left to pg-boss's own maintenance (pg-boss-fail-expired.sql, a timer of its own): like pg-boss,
-- this fetch takes only jobs not yet active (created or retry), pending here. lease_expires_at is
-- started_on + expireInSeconds ($2 seconds): the moment maintenance may fail the job.
WITH next AS (
  SELECT run_id AS picked
  FROM runs
  WHERE status = 'pending'
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
