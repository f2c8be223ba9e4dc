-- variant: UPDATE … FROM (SELECT … LIMIT 1) AS picked, no lock in the derived table
-- role: claim
-- a: 121@2
-- b-waits: yes
-- b-after-commit: 121@3
-- b-after-rollback: 121@2
-- predict: refuse
-- why: B's UPDATE waits on 121; the re-check joins its new version with the derived table's row found before waiting: a double claim
-- The shape of sqlxmq's claim before its race fix (Diggsey/sqlxmq, the down-migration of fix_concurrent_poll):
-- the finder is a derived table in FROM that locks nothing, and the UPDATE's WHERE only joins on the id.
UPDATE runs
SET status           = 'running',
    lease_owner      = $1,
    lease_expires_at = now() + make_interval(secs => $2),
    lease_generation = lease_generation + 1,
    heartbeat_at     = now()
FROM (
  SELECT run_id
  FROM runs
  WHERE status = 'pending'
     OR (status = 'running' AND lease_expires_at < now())
  ORDER BY created_at
  LIMIT 1
) AS picked
WHERE runs.run_id = picked.run_id
RETURNING runs.run_id, runs.lease_generation, runs.lease_expires_at, runs.cancel_requested;
