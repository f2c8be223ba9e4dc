-- On a real server each worker has its own backend; a row it locked carries its transaction id in xmax.
SELECT a.application_name AS session, a.pid::text AS handle, r.run_id
FROM pg_stat_activity AS a
JOIN runs AS r ON r.xmax = a.backend_xid
WHERE a.datname = current_database()
ORDER BY a.application_name, r.run_id;
