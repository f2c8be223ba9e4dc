-- Follows rails/solid_queue@29e818d:app/models/solid_queue/process/prunable.rb (prune), which the
-- supervisor's maintenance runs every process_alive_threshold (5 minutes by default): each process whose
-- last heartbeat is older than that is pruned, and its claimed executions are failed with
-- ProcessPrunedError (claimed_execution.rb, fail_all_with). Nothing asks whether the process is in fact
-- still running the job. Here that is a running run whose lease_expires_at (last heartbeat + the
-- threshold) has passed: failed, its claim gone. Solid Queue does not retry a failed job by itself.
UPDATE runs
SET status           = 'failed',
    lease_owner      = NULL,
    lease_expires_at = NULL,
    heartbeat_at     = NULL,
    result           = 'ProcessPrunedError'
WHERE status = 'running'
  AND lease_expires_at < now()
RETURNING run_id, status;
