-- variant: completion by run id and status = 'running' (no generation)
-- role: complete
-- a: done(answer from A)
-- b-waits: yes
-- b-after-commit: none
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: the stale worker wins; the current owner's re-check of status fails
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND status = 'running'
  AND $2::integer IS NOT NULL
RETURNING status, result;
