-- The lab's cancel acknowledgement under the claimed-execution guard (see solid-queue-complete-claimed.sql):
-- it finalizes the run as cancelled only while this claim is still the run's, running.
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
  AND lease_generation = $2
  AND status = 'running'
RETURNING status;
