-- PGlite only, when a write that waited for a row lock runs again: the row it waited for, by id alone.
-- A real server's waiting UPDATE locks the row's newest version before it re-checks its WHERE, so it
-- waits again for whoever locked that version meanwhile, even when the row no longer matches (it then
-- updates nothing). Run with NOWAIT inside a transaction that is rolled back: it only asks.
SELECT run_id FROM runs
WHERE run_id = $1
FOR UPDATE NOWAIT;
