-- The launch-time recovery's read: dbos-inc/dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/
-- transact/execution/DBOSExecutor.java (start(): a ListWorkflowsInput with status PENDING, this process's
-- executor id, its application version, and withEndTime(Instant.now()) read at the end of launch) and
-- …/database/dao/WorkflowDAO.java (listWorkflows: executor_id = ANY(?), created_at <= ? in milliseconds,
-- ORDER BY created_at). PENDING is running here, executor_id is lease_owner ($1, the executor id 'local'
-- unless DBOS__VMID sets one), and the cutoff is now(): the lab's clock has not moved since launch, so now()
-- is the instant start() read. A workflow the app started in that instant is no later than it, and passes.
-- The lab has one application version.
SELECT run_id, lease_generation
FROM runs
WHERE status = 'running'
  AND lease_owner = $1
  AND created_at <= now()
ORDER BY created_at, run_id;
