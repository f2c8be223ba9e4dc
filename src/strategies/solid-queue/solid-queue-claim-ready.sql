-- Follows rails/solid_queue@29e818d:app/models/solid_queue/ready_execution.rb (select_and_lock), as
-- solid-queue-claim.sql does, but with the end of a dead process's claims left to the supervisor's
-- pruner (solid-queue-prune.sql, a timer of its own): like Solid Queue, this claim takes ready
-- executions only, pending here. lease_expires_at is the last heartbeat + process_alive_threshold
-- ($2 seconds): the moment the pruner may call the process dead.
WITH ready AS (
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
FROM ready
WHERE run_id = ready.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
