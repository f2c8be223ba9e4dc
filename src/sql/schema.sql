-- The lab's whole database. The virtual clock: sim.now() reads a setting that the scheduler moves,
-- and search_path puts it in front of pg_catalog.now(), so the lesson's SQL can say now().
CREATE SCHEMA IF NOT EXISTS sim;

CREATE OR REPLACE FUNCTION sim.now() RETURNS timestamptz
  LANGUAGE sql STABLE
  AS $$ SELECT current_setting('sim.now')::timestamptz $$;

CREATE TABLE runs (
  run_id           integer     PRIMARY KEY,
  tenant           text        NOT NULL DEFAULT 'acme',
  status           text        NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'running', 'done', 'cancelled', 'failed', 'stopped_cost')),
  lease_owner      text,
  lease_expires_at timestamptz,
  lease_generation integer     NOT NULL DEFAULT 0,
  heartbeat_at     timestamptz,
  cancel_requested boolean     NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL,
  progress         integer     NOT NULL DEFAULT 0,
  cost_cents       integer     NOT NULL DEFAULT 0,
  result           text,
  -- Backpressure lab: how many model calls the run needs, what one costs, the call in flight (if any),
  -- and when the run was claimed and finished (its waiting time is claimed_at - created_at).
  work_steps       integer     NOT NULL DEFAULT 1,
  call_cost_cents  integer     NOT NULL DEFAULT 0,
  call_started_at  timestamptz,
  claimed_at       timestamptz,
  finished_at      timestamptz
);

CREATE INDEX runs_created_at_idx ON runs (created_at);
