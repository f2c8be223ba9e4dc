-- Is the session's backend ($1) waiting for something another session of the spec ($2, every session's
-- backend) holds? The function PostgreSQL's own isolation tester asks (heavyweight locks, including row
-- and advisory locks, and a serializable transaction's safe-snapshot wait).
SELECT pg_catalog.pg_isolation_test_session_is_blocked($1::integer, $2::integer[]) AS blocked;
