-- The lab's cancel acknowledgement with the unfenced completion's guard: the id only. (Solid Queue
-- itself cannot discard a job that is in progress.)
UPDATE runs
SET status           = 'cancelled',
    lease_expires_at = NULL
WHERE run_id = $1
RETURNING status;
