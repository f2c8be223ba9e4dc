-- DBOS Transact's cancel writes CANCELLED on the workflow's row itself (WorkflowDAO.java, cancelWorkflows,
-- at dbos-inc/dbos-transact-java@f78a0ce); the lab's request sets cancel_requested and the worker that saw it
-- writes the status, by id, as the outcome write does.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status;
