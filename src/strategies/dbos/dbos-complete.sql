-- Follows dbos-inc/dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/transact/database/dao/
-- WorkflowDAO.java (updateWorkflowOutcome): the outcome is written by id, WHERE status != 'CANCELLED', so a
-- workflow cancelled during its last step does not complete; it checks no executor, so every execution of
-- the workflow writes its outcome. SUCCESS is done here.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status <> 'cancelled'
RETURNING status, result;
