-- graphile-worker has no heartbeat: a running job renews nothing. The lab's worker still looks at its
-- run when its heartbeat is due; this read changes no row and checks nothing, so the worker goes on.
SELECT lease_expires_at, cancel_requested
FROM runs
WHERE run_id = $1;
