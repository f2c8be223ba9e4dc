-- For the console's transaction only: give up before the page's 2 s watchdog, never queue behind a
-- worker's lock, and read the lab's clock at this step.
SELECT set_config('statement_timeout', $1, true),
       set_config('lock_timeout', $2, true),
       set_config('sim.now', $3, true);
