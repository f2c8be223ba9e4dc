-- Follows rails/solid_queue@29e818d:app/models/solid_queue/ready_execution.rb (select_and_lock): in one
-- transaction, ready executions in order LIMIT n FOR UPDATE SKIP LOCKED, a claimed execution inserted
-- for each under the worker's process, the ready rows deleted. The lab's run row stands for both
-- executions: status running with lease_owner is the claimed execution, and each claim's
-- lease_generation is that claimed execution's identity. A claim lasts while its process heartbeats:
-- the supervisor prunes a process whose heartbeat is older than process_alive_threshold (5 minutes)
-- and fails its claims (app/models/solid_queue/process/prunable.rb). The lab folds the end of a pruned
-- claim into the next claim of the run: lease_expires_at is the last heartbeat + the threshold ($2 seconds).
WITH ready AS (
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
FROM ready
WHERE run_id = ready.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
