-- Reset (PGlite and a real server): DELETE is about three times cheaper than TRUNCATE on a table this
-- small, and TRUNCATE swaps in new files, after which every session plans its statements on runs afresh;
-- the dead rows DELETE leaves are vacuumed away every few hundred resets.
DELETE FROM runs;
