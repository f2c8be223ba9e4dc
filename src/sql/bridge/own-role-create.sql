-- The command line's run (--db): its workers log in as a role of the run's own, named like its schema
-- (lease_lab_cli_<pid>_<random>; roles and schemas have separate names), with LOGIN and the password whose
-- verifier login-role.sql set, and nothing else: no attributes, a member of no role, USAGE on the run's
-- schema and SELECT, UPDATE and DELETE on its runs table (DELETE for a completion that deletes its run, as
-- pgmq's does; the observer, the connecting role, seeds and resets it).
-- So a statement of the user's that names anything outside the run's schema (public.runs, a function that
-- writes a table of theirs) fails with PostgreSQL's own "permission denied". A connecting role that is not
-- a superuser is made a member of it, to end, cancel and watch the workers' backends as before. Marked with
-- the comment below; own-schema-drop.sql drops it with the schema.
DO $$
DECLARE
  own text := current_setting('lease_lab.own_schema');
BEGIN
  EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS PASSWORD %L',
                 own, current_setting('lease_lab.login_verifier'));
  EXECUTE format('COMMENT ON ROLE %I IS %L', own, 'Lease Lab command line run (npm run sim -- … --db): its workers'' login; dropped with the schema of the same name');
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', own, own);
  EXECUTE format('GRANT SELECT, UPDATE, DELETE ON %I.runs TO %I', own, own);
  EXECUTE format('GRANT EXECUTE ON FUNCTION %I.now() TO %I', own, own);
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT %I TO %I', own, current_user);
  END IF;
END
$$;
