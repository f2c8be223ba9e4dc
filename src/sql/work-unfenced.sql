UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $2
WHERE run_id = $1
  AND status = 'running'
RETURNING progress, cancel_requested;
