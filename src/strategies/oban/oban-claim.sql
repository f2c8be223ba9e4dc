-- Follows oban-bg/oban@2939e31:lib/oban/engines/basic.ex (fetch_jobs): a "subset" CTE of available jobs
-- in order, LIMIT demand, FOR UPDATE SKIP LOCKED (a CTE so the planner runs it once), then an UPDATE
-- joined to it sets state executing, attempted_at and attempted_by. Oban has no lease column: its
-- Lifeline plugin (lib/oban/lifeline.ex, rescue_jobs in basic.ex) puts executing jobs whose
-- attempted_at is older than rescue_after back to available, purely on time. The lab folds that rescue
-- into this claim: lease_expires_at is attempted_at + rescue_after ($2 seconds), and nothing moves it.
WITH subset AS (
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
    heartbeat_at     = NULL
FROM subset
WHERE run_id = subset.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
