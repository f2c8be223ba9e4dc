-- A worker's process dies: end its backend and wait (up to $2 ms) until it is gone, so its open
-- transaction has rolled back and its row locks are free when this returns (PostgreSQL 14+).
SELECT pg_terminate_backend($1::integer, $2::bigint) AS terminated;
