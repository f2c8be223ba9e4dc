-- Follows collectiveidea/delayed_job_active_record@e5b4fbf:lib/delayed/backend/active_record.rb
-- (reserve, ready_to_run, by_priority, reserve_with_scope_using_optimized_postgres): one UPDATE sets
-- locked_at and locked_by = the worker's name on the first job of a sub-select FOR UPDATE SKIP LOCKED,
-- ready when its run_at has come and it is unlocked or locked longer ago than max_run_time, OR whenever
-- its locked_by is the worker's own name, ordered by priority, run_at. A worker takes back a job locked
-- under its name at once, live lock or not: delayed_job assumes it crashed before (collectiveidea/
-- delayed_job@eaef62d:lib/delayed/worker.rb, name). Here a locked job is a running run, locked_by is
-- lease_owner, lease_expires_at is locked_at + max_run_time ($2 seconds), and the order is created_at,
-- run_id (the lab has no priorities; its run_at is its creation). A finished job is deleted, so a done
-- run is no job at all: the name clause reads running runs only.
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1
WHERE run_id IN (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
     OR (status = 'running' AND lease_owner = $1)
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
