-- The run's next model call, if its budget and the cap on calls in flight allow it. A call that would
-- take the run past its budget is never made: the run is stopped and marked stopped_cost instead.
-- No row back: the cap is reached, and the worker tries again on its next turn.
WITH run AS (
  SELECT run_id, cost_cents + call_cost_cents > $4 AS over_budget
  FROM runs
  WHERE run_id = $1
    AND lease_owner = $2
    AND status = 'running'
    AND call_started_at IS NULL
)
UPDATE runs
SET status          = CASE WHEN run.over_budget THEN 'stopped_cost' ELSE 'running' END,
    call_started_at = CASE WHEN run.over_budget THEN NULL ELSE now() END,
    finished_at     = CASE WHEN run.over_budget THEN now() END
FROM run
WHERE runs.run_id = run.run_id
  AND (run.over_budget
       OR (SELECT count(*) FROM runs WHERE call_started_at IS NOT NULL) < $3)
RETURNING runs.status, runs.call_started_at IS NOT NULL AS calling;
