-- The command line's own schema, named for its run (lease_lab_cli_<pid>_<random>, made by PostgresLab): two
-- runs at once, or a run beside live mode's lease_lab, never share a table. The comment marks it as the
-- lab's; the tables are schema.sql's own, created next with this schema first on the search_path.
DO $$
DECLARE
  own text := current_setting('lease_lab.own_schema');
BEGIN
  EXECUTE format('CREATE SCHEMA %I', own);
  EXECUTE format('COMMENT ON SCHEMA %I IS %L', own, 'Lease Lab command line run (npm run sim -- run --db); dropped when the run ends');
  EXECUTE format('CREATE FUNCTION %I.now() RETURNS timestamptz LANGUAGE sql STABLE AS %L', own, 'SELECT current_setting(''sim.now'')::timestamptz');
END
$$;
