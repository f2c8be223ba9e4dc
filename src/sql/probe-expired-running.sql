-- The NOWAIT probe before a rescuer's one UPDATE of every running run past its lease (Oban's Lifeline,
-- pg-boss's expiry, Solid Queue's pruner): on PGlite it finds out whether that UPDATE would wait for a
-- row lock, which a lock wait must never reach.
SELECT run_id FROM runs
WHERE status = 'running'
  AND lease_expires_at < now()
FOR UPDATE NOWAIT;
