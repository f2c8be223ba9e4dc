-- Follows oban-bg/oban@2939e31:lib/oban/engines/basic.ex (fetch_jobs), as oban-claim.sql does, but with
-- the rescue left to the Lifeline (oban-lifeline-rescue.sql, a process of its own): this claim takes
-- available jobs only, pending here. lease_expires_at is attempted_at + rescue_after ($2 seconds): the
-- moment the Lifeline may call the job stuck.
WITH subset AS (
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
    heartbeat_at     = NULL
FROM subset
WHERE run_id = subset.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
