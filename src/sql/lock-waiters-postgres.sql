-- A backend waiting for a row lock: its wait event type is Lock; pg_blocking_pids names the holders.
SELECT a.application_name AS session,
       a.wait_event_type,
       ARRAY(SELECT b.application_name
             FROM pg_stat_activity AS b
             WHERE b.pid = ANY (pg_blocking_pids(a.pid))
             ORDER BY b.application_name) AS holders
FROM pg_stat_activity AS a
WHERE a.application_name = $1
  AND a.datname = current_database();
