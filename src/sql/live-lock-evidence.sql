-- The server's own record of a lock wait: the waiting backend's pg_locks rows with granted = false, and
-- the granted rows of other backends on the same lockable object (who it waits for).
WITH waiting AS (
  SELECT * FROM pg_locks WHERE pid = $1 AND NOT granted
)
SELECT a.application_name AS session, l.pid, l.locktype, l.relation::regclass::text AS relation,
       l.page, l.tuple, l.transactionid::text AS transactionid, l.mode, l.granted
FROM pg_locks AS l
JOIN waiting AS w
  ON l.locktype = w.locktype
 AND l.database IS NOT DISTINCT FROM w.database
 AND l.relation IS NOT DISTINCT FROM w.relation
 AND l.page IS NOT DISTINCT FROM w.page
 AND l.tuple IS NOT DISTINCT FROM w.tuple
 AND l.transactionid IS NOT DISTINCT FROM w.transactionid
 AND l.virtualxid IS NOT DISTINCT FROM w.virtualxid
 AND l.classid IS NOT DISTINCT FROM w.classid
 AND l.objid IS NOT DISTINCT FROM w.objid
 AND l.objsubid IS NOT DISTINCT FROM w.objsubid
LEFT JOIN pg_stat_activity AS a ON a.pid = l.pid
WHERE l.pid = $1 OR l.granted
ORDER BY l.granted, a.application_name;
