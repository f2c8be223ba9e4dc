-- At the end of a command line run: its own schema goes, only if it carries the mark of own-schema-create.sql,
-- object by object and never with CASCADE: anything of anyone else's that depends on it makes the server
-- refuse, naming it, and nothing is dropped (the DO block is one statement).
DO $$
DECLARE
  own text := current_setting('lease_lab.own_schema');
BEGIN
  IF pg_catalog.obj_description(pg_catalog.to_regnamespace(pg_catalog.quote_ident(own)), 'pg_namespace')
     IS DISTINCT FROM 'Lease Lab command line run (npm run sim -- run --db); dropped when the run ends' THEN
    RAISE EXCEPTION 'the schema % is not the command line''s own; it was left as it is', own;
  END IF;
  EXECUTE format('DROP TABLE IF EXISTS %I.runs', own);
  EXECUTE format('DROP FUNCTION IF EXISTS %I.now()', own);
  EXECUTE format('DROP SCHEMA %I', own);
END
$$;
