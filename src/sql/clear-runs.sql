-- Reset on PGlite: DELETE is about three times cheaper than TRUNCATE on a table this small
-- (TRUNCATE swaps in new files); the dead rows it leaves are vacuumed away every few hundred resets.
DELETE FROM runs;
