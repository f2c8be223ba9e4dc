-- Reset, on a connection whose statements took advisory try-locks (check --db): a session-level advisory lock
-- outlives COMMIT and ROLLBACK, so without this the next schedule would start with the last one's locks held.
SELECT pg_advisory_unlock_all();
