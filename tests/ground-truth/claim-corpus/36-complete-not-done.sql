-- variant: completion by run id and status <> 'done'
-- role: complete
-- a: done(answer from A)
-- b-waits: yes
-- b-after-commit: none
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: first to finish wins, the stale worker included
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status <> 'done'
  AND $2::integer IS NOT NULL
RETURNING status, result;
