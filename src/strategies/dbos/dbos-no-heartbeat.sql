-- DBOS Transact has no heartbeat: nothing renews a PENDING workflow, and no lease runs out. The lab's worker
-- still looks at its run when its heartbeat is due; this read changes no row and checks nothing.
SELECT lease_expires_at, cancel_requested
FROM runs
WHERE run_id = $1;
