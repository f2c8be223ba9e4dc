-- variant: completion by run id only
-- role: complete
-- a: done(answer from A)
-- b-waits: yes
-- b-after-commit: done(answer from B)
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: both complete the run: B overwrites the stale worker's result (duplicate execution)
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND $2::integer IS NOT NULL
RETURNING status, result;
