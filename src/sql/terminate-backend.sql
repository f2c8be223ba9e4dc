-- A worker's process dies: end its backend. The lab then waits for the backend to close its
-- connection, which it does only after its open transaction has rolled back and its row locks are free.
SELECT pg_terminate_backend($1::integer) AS terminated;
