-- The prepared transactions' names. pg_prepared_xact() is the function behind the pg_prepared_xacts
-- view, read directly: the view also joins pg_authid and pg_database for its owner and database columns,
-- and planning those joins was most of the cost of the lab's first query in a fresh PGlite (~40 of ~100 ms).
SELECT gid FROM pg_prepared_xact() ORDER BY gid;
