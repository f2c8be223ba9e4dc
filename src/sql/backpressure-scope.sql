-- On PGlite every backpressure transaction starts here: its runs table is backpressure.runs and its
-- clock is the lane's, for this transaction only. The session may be the race lab's, which has its own
-- runs table and its own clock; after COMMIT both are as that lab left them.
SELECT set_config('search_path', 'backpressure, sim, pg_catalog', true),
       set_config('sim.now', $1, true);
