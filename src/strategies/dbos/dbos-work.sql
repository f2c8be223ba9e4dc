-- DBOS Transact records no progress. It checkpoints steps (dbos-inc/dbos-transact-java@f78a0ce:transact/src/
-- main/java/dev/dbos/transact/database/dao/StepsDAO.java: checkStepResult before a step, an insert into
-- operation_outputs keyed by (workflow_uuid, function_id) ON CONFLICT DO NOTHING after it), so an execution
-- that reaches a step another one has checkpointed takes its output instead of running it; the body's own
-- code, outside steps, runs in every execution. The lab's model call stands for that work, and its progress
-- write takes DBOS's guard on a workflow's row: the id, nothing else, counting each execution's calls.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
