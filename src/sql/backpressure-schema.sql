-- The backpressure lab's runs table on PGlite, in a schema of its own, with the race lab's columns,
-- defaults, checks and indexes: the two labs can share one Postgres without touching each other's rows.
-- `runs` here is the race lab's table, wherever the session's search_path finds it.
CREATE SCHEMA IF NOT EXISTS backpressure;
CREATE TABLE IF NOT EXISTS backpressure.runs (LIKE runs INCLUDING ALL);
-- What the claims and the call cap count, so each count reads a few index entries instead of every run
-- ever created (thousands in this lab). Indexes change how fast a statement runs, never what it returns.
CREATE INDEX IF NOT EXISTS runs_pending_idx ON backpressure.runs (created_at, run_id) WHERE status = 'pending';
CREATE INDEX IF NOT EXISTS runs_running_idx ON backpressure.runs (tenant) WHERE status = 'running';
CREATE INDEX IF NOT EXISTS runs_calling_idx ON backpressure.runs (run_id) WHERE call_started_at IS NOT NULL;
