-- PGlite only, when a two-statement claim goes on at its UPDATE. Its transaction was parked after its SELECT
-- (PREPARE TRANSACTION), and a parked transaction runs nothing more: it is rolled back and begun again with
-- the same row locks, taken again here in the same call into Postgres, so no other worker runs in between
-- and no row changed while they were held. FOR UPDATE is at least the SELECT's own (FOR UPDATE or FOR NO KEY
-- UPDATE); the two differ only against FOR KEY SHARE, which no statement the lab plays takes.
SELECT run_id FROM runs
WHERE run_id = ANY($1::int[])
ORDER BY run_id
FOR UPDATE NOWAIT;
