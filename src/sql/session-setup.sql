-- sim.now() shadows pg_catalog.now() for this session: the lesson's now() reads the virtual clock.
SET search_path = sim, pg_catalog, public;
