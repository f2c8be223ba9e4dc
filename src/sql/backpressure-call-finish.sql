-- The call's answer is written and paid for. The run's last call finishes the run.
UPDATE runs
SET progress        = progress + 1,
    cost_cents      = cost_cents + call_cost_cents,
    call_started_at = NULL,
    status          = CASE WHEN progress + 1 >= work_steps THEN 'done' ELSE status END,
    finished_at     = CASE WHEN progress + 1 >= work_steps THEN now() END
WHERE run_id = $1
  AND lease_owner = $2
  AND call_started_at IS NOT NULL
RETURNING status, progress, cost_cents;
