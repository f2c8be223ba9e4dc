-- Is this backend (by pid, so two labs on one database never mix up their sessions) waiting for a lock,
-- and whose? pg_blocking_pids names the holders, advisory locks' too (wait_event 'advisory': check --db plays
-- a claim's pg_advisory_lock; the others are a row's lock: transactionid or tuple).
SELECT a.wait_event_type,
       a.wait_event,
       ARRAY(SELECT b.application_name
             FROM pg_stat_activity AS b
             WHERE b.pid = ANY (pg_blocking_pids(a.pid))
             ORDER BY b.application_name) AS holders
FROM pg_stat_activity AS a
WHERE a.pid = $1;
