-- Follows janbjorge/pgqueuer@0aa3dde:pgqueuer/qb.py (build_update_heartbeat_query): heartbeat = now()
-- for the job ids the heartbeat buffer flushes, with no check of which queue manager picked the job.
-- pgqueuer deletes a finished job, so a job's row exists while it is queued or picked; a worker beats
-- only for a job it picked, which stays picked until it is deleted: here, a running run. Moving the
-- heartbeat moves the moment the dequeue may take the job again: lease_expires_at = now() + retry_timer
-- ($2 seconds).
UPDATE runs
SET heartbeat_at     = now(),
    lease_expires_at = now() + make_interval(secs => $2)
WHERE run_id = $1
  AND status = 'running'
RETURNING lease_expires_at, cancel_requested;
