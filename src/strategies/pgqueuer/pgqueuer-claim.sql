-- Follows janbjorge/pgqueuer@0aa3dde:pgqueuer/qb.py (build_dequeue_query): one statement whose CTEs take
-- queued jobs and, for an entrypoint with a retry_timer, picked jobs whose heartbeat is older than it,
-- each FOR UPDATE SKIP LOCKED, then an UPDATE sets status picked, heartbeat = now() and the
-- queue_manager_id. A running job whose heartbeats stop reaching the table is dequeued again, whoever
-- still runs it. Here a picked job is a running run, and lease_expires_at is heartbeat + retry_timer
-- ($2 seconds): the moment another dequeue may take it.
WITH next_job AS (
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
FROM next_job
WHERE run_id = next_job.picked
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
