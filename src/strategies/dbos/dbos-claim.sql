-- Follows dbos-inc/dbos-transact-java@f78a0ce:transact/src/main/java/dev/dbos/transact/database/dao/
-- QueuesDAO.java (startQueuedWorkflows): in one transaction a SELECT of the queue's ENQUEUED workflows
-- ordered by priority, created_at, FOR UPDATE SKIP LOCKED (NOWAIT for a queue with a global concurrency
-- limit), then per workflow an UPDATE by id AND status = 'ENQUEUED' that sets status = 'PENDING' and
-- executor_id = this process's executor id. Here ENQUEUED is pending, PENDING is running, executor_id is
-- lease_owner ($1), and the two statements are one, as their transaction makes them (the lab has no
-- priorities). A workflow has no lease: nothing ends a PENDING workflow's ownership but a recovery of its
-- executor id (dbos-recover-read.sql), so lease_expires_at stays NULL.
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = NULL,
    lease_generation = lease_generation + 1
WHERE run_id IN (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
  AND status = 'pending'
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
