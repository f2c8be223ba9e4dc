-- The recovery's write, by the id its read found: recoverWorkflow, for a workflow with no queue, calls
-- executeWorkflowById, which writes the status row again with insertWorkflowStatus (dbos-inc/
-- dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/transact/database/dao/WorkflowDAO.java):
-- INSERT … ON CONFLICT (workflow_uuid) DO UPDATE SET recovery_attempts = recovery_attempts + 1 (for a
-- recovery), updated_at, executor_id = EXCLUDED.executor_id (for a status other than ENQUEUED or DELAYED),
-- RETURNING status among others. The row exists, so the conflict branch runs: it checks nothing of who runs
-- the workflow. Here executor_id is lease_owner ($2) and the attempt it counts is lease_generation + 1. The
-- caller (initWorkflowStatus, then executeWorkflow) runs the body of a PENDING row (running here) and returns
-- a SUCCESS row as it is; for an ERROR or CANCELLED row it logs that its idempotency check is not implemented
-- and goes on. The lab's recovery runs only a row still running and leaves every finished one as it is.
UPDATE runs
SET lease_owner      = $2,
    lease_generation = lease_generation + 1
WHERE run_id = $1
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested, status;
