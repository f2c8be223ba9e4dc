-- A completion that deletes its run, as pgmq, Hangfire.PostgreSql, delayed_job and gue finish a job:
-- npm run sim -- check race --claim src/strategies/skip-locked/claim-skip-locked.sql --complete docs/examples/complete-by-delete.sql
-- The lab judges it by how many rows it deleted: 1, the worker completed the run; 0, its write missed.
DELETE FROM runs
WHERE run_id = $1;
