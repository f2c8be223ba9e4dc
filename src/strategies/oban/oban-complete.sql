-- Follows oban-bg/oban@2939e31:lib/oban/engines/basic.ex (complete_job): state completed where the id
-- matches, with no check of state, node or attempt.
UPDATE runs
SET status           = 'done',
    result           = $2,
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status, result;
