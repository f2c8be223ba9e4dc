-- variant: completion fenced by run and generation
-- role: complete
-- a: none
-- b-waits: no
-- b-after-commit: done(answer from B)
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: the stale worker A (generation 1) changes nothing; B completes
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
RETURNING status, result;
