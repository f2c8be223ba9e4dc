UPDATE runs
SET cancel_requested = true
WHERE run_id = $1
RETURNING run_id, status, cancel_requested;
