-- A step's checkpoint: dbos-inc/dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/transact/
-- database/dao/StepsDAO.java inserts the step's output into operation_outputs keyed by (workflow_uuid,
-- function_id), ON CONFLICT DO NOTHING, checking no executor (a second execution's insert does nothing and
-- takes the first one's output); the one that wins also re-stamps the workflow's executor_id by id
-- (WorkflowDAO.java, restampExecutorId, #462). The lab's progress write takes the same guard: the
-- workflow's id, nothing else, and counts each execution's step.
UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
RETURNING progress, cancel_requested;
