-- Runs arriving this second, created by clients faster than workers can finish them.
INSERT INTO runs (run_id, tenant, created_at, work_steps, call_cost_cents)
SELECT run_id, tenant, created_at, work_steps, call_cost_cents
FROM jsonb_to_recordset($1::jsonb) AS arrival(
  run_id integer, tenant text, created_at timestamptz, work_steps integer, call_cost_cents integer
);
