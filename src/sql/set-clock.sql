SELECT set_config('sim.now', $1, false);
