UPDATE runs
SET progress   = progress + 1,
    cost_cents = cost_cents + $3
WHERE run_id = $1
  AND lease_generation = $2
RETURNING progress, cancel_requested;
