-- The launch-time recovery's read: dbos-inc/dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/
-- transact/execution/DBOSExecutor.java (start(): a ListWorkflowsInput with status PENDING, this process's
-- executor id, its application version, and withEndTime(Instant.now()) read at the end of launch) and
-- …/database/dao/WorkflowDAO.java (listWorkflows: executor_id = ANY(?), created_at <= ? in milliseconds,
-- ORDER BY created_at). PENDING is running here, executor_id is lease_owner ($1, the executor id 'local'
-- unless DBOS__VMID sets one). The cutoff is the instant start() read, the launch: clock 0 in the lab. It is
-- written now(), that instant or later, which takes the same runs, since a scenario creates every run by
-- clock 0. A workflow the app started in the launch's instant is no later than it, and passes. The lab has
-- one application version.
SELECT run_id, lease_generation
FROM runs
WHERE status = 'running'
  AND lease_owner = $1
  AND created_at <= now()
ORDER BY created_at, run_id;
