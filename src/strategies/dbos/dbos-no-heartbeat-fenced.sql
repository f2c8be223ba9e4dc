-- No heartbeat (DBOS Transact has none); with the lab's fence the worker's look at its run checks that its
-- claim's generation is still the run's, and stops when it is not.
SELECT lease_expires_at, cancel_requested
FROM runs
WHERE run_id = $1
  AND lease_generation = $2;
