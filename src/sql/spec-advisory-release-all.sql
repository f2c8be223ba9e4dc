-- Between two permutations of a spec every session-level advisory lock is let go, as the server's sessions
-- let theirs go when they disconnect (src/db/pglite-spec.ts).
SELECT pg_advisory_unlock_all();
