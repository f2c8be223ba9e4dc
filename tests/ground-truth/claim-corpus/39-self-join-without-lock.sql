-- variant: runs joined a second time in FROM, the joined row re-checked, no lock
-- role: claim
-- a: 123@1
-- b-waits: yes
-- b-after-commit: 123@2
-- b-after-rollback: 123@1
-- predict: refuse
-- why: after the wait PostgreSQL joins 123's new version with the copy of `seen` it read before (still pending): a double claim
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = runs.lease_generation + 1,
    heartbeat_at     = now()
FROM runs AS seen
WHERE runs.run_id = seen.run_id
  AND seen.status = 'pending'
  AND seen.run_id = (SELECT min(run_id) FROM runs WHERE status = 'pending')
RETURNING runs.run_id, runs.lease_generation, runs.lease_expires_at, runs.cancel_requested;
