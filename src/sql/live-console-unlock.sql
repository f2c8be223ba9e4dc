-- After the console's rollback: session-level advisory locks outlive a transaction; release any it took.
SELECT pg_advisory_unlock_all();
