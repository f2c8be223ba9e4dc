-- variant: completion by generation only (no run id)
-- role: complete
-- a: done(answer from A)
-- b-waits: no
-- b-after-commit: done(answer from B)
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: A's generation 1 matches another run (124), which it completes
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE lease_generation = $2
  AND $1::integer IS NOT NULL
RETURNING status, result;
