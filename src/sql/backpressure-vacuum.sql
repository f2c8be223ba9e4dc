-- PGlite runs no autovacuum: the backpressure adapter clears dead row versions and refreshes the
-- planner's statistics itself every so often (the statistics let the counts use the partial indexes).
-- A statement of its own (VACUUM cannot run inside a transaction), so the table is named in full.
VACUUM (ANALYZE) backpressure.runs;
