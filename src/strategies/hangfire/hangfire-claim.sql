-- Follows hangfire-postgres/Hangfire.PostgreSql@942fccb:src/Hangfire.PostgreSql/PostgreSqlJobQueue.cs
-- (Dequeue_Transaction): an UPDATE sets fetchedat = now() on the queue entry a sub-select picks FOR UPDATE
-- SKIP LOCKED, one whose fetchedat is null (never fetched) or older than InvisibilityTimeout (30 minutes by
-- default). A fetched job becomes fetchable again once that timeout has passed, whether or not its worker
-- still runs it. Here a fetched entry is a running run, and lease_expires_at is fetchedat +
-- InvisibilityTimeout ($2 seconds). Hangfire's state change to Processing, which follows the fetch, is
-- folded into this claim.
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    claimed_at       = now(),
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
WHERE run_id = (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at, run_id
  LIMIT 1
  FOR UPDATE SKIP LOCKED
)
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
