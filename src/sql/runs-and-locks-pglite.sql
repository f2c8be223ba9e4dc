-- The runs table and who locks which row, in one pass: a row locked (or updated) by an open transaction
-- carries that transaction's id in xmax, and the lab's parked workers are the prepared transactions.
-- pg_prepared_xact() is the function behind the pg_prepared_xacts view, without the view's joins to
-- pg_authid and pg_database (see prepared-transactions.sql).
SELECT r.run_id, r.tenant, r.status, r.lease_owner, r.lease_expires_at, r.lease_generation,
       r.heartbeat_at, r.cancel_requested, r.created_at, r.progress, r.cost_cents, r.result,
       p.gid AS locked_by
FROM runs AS r
LEFT JOIN pg_prepared_xact() AS p ON p.transaction = r.xmax
ORDER BY r.run_id;
