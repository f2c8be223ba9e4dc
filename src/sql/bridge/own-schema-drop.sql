-- At the end of a command line run: its own schema goes, only if it carries the mark of own-schema-create.sql,
-- object by object and never with CASCADE: anything of anyone else's that depends on it makes the server
-- refuse, naming it, and nothing is dropped (the DO block is one statement). Then the run's role
-- (own-role-create.sql), if it carries its mark: whatever it owns in this database first (a run's role may
-- create nothing, so normally nothing), then the role. This is the one cleanup of a run: schema, role and
-- grants (the grants go with the objects they are on).
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
  IF pg_catalog.shobj_description(pg_catalog.to_regrole(pg_catalog.quote_ident(own)), 'pg_authid')
     = 'Lease Lab command line run (npm run sim -- … --db): its workers'' login; dropped with the schema of the same name' THEN
    EXECUTE format('DROP OWNED BY %I', own);
    EXECUTE format('DROP ROLE %I', own);
  END IF;
END
$$;
