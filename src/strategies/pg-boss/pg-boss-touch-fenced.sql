-- pg-boss's touch (heartbeat_on only; the expiry does not move) with the lab's generation fence in
-- place of its state check.
UPDATE runs
SET heartbeat_at = now()
WHERE run_id = $1
  AND lease_generation = $2
RETURNING lease_expires_at, cancel_requested;
