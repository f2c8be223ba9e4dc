-- A row locked (or updated) by an open transaction carries that transaction's id in xmax. Prepared
-- transactions are the lab's parked workers, so joining the two says which worker locks which run.
-- pg_prepared_xact() is the function behind the pg_prepared_xacts view, without the view's joins to
-- pg_authid and pg_database (see prepared-transactions.sql).
SELECT p.gid AS handle, r.run_id
FROM pg_prepared_xact() AS p
JOIN runs AS r ON r.xmax = p.transaction
ORDER BY p.gid, r.run_id;
