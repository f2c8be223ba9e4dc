-- Every session-level advisory lock PGlite's one backend holds, let go between two permutations of a spec
-- when the server's sessions would hold none either (every session's teardown lets go of them), or when the
-- lab no longer knows which they hold and refuses every later advisory call (src/db/pglite-spec.ts).
SELECT pg_advisory_unlock_all();
