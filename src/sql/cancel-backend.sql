-- Reset: stop a statement that is still waiting for a row lock.
SELECT pg_cancel_backend($1::integer) AS cancelled;
