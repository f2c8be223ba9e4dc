-- A NOWAIT probe inside a session's open transaction runs under this savepoint, so the locks it takes
-- are given back (ROLLBACK TO) whatever it answered (src/db/pglite-spec.ts).
SAVEPOINT lease_lab_probe;
