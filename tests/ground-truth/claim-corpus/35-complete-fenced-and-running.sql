-- variant: completion fenced by generation and status = 'running'
-- role: complete
-- a: none
-- b-waits: no
-- b-after-commit: done(answer from B)
-- b-after-rollback: done(answer from B)
-- predict: yes
-- why: as fenced
UPDATE runs
SET status           = 'done',
    result           = $3,
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
  AND status = 'running'
RETURNING status, result;
