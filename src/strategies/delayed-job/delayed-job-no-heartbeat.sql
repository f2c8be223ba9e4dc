-- delayed_job has no heartbeat: a running job's locked_at stays where its reserve put it. The lab's
-- worker still looks at its run when its heartbeat is due; this read changes no row and checks nothing.
SELECT lease_expires_at, cancel_requested
FROM runs
WHERE run_id = $1;
