-- npm run sim -- spec --db: the spec's sessions (and its setup, teardown and checks) log in as a role of the
-- run's own, named like its throwaway database (lease_lab_spec_<pid>_<random>), with LOGIN and the password
-- whose verifier login-role.sql set, and nothing else: no attributes, a member of no role. It will own the
-- throwaway database, so the spec's setup may create its tables there (INHERIT: CREATE on the public schema
-- comes to a database's owner through pg_database_owner), and nothing of the server's other
-- databases is its to change; superuser-only functions (pg_read_file, ending another role's backend) are
-- refused by PostgreSQL's own privileges. A connecting role that is not a superuser is made a member of it,
-- to create the database for it and drop it afterwards. Marked with the comment below; spec-database-drop.sql
-- drops it with the database.
DO $$
DECLARE
  own text := current_setting('lease_lab.login_role');
BEGIN
  EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT NOREPLICATION NOBYPASSRLS PASSWORD %L',
                 own, current_setting('lease_lab.login_verifier'));
  EXECUTE format('COMMENT ON ROLE %I IS %L', own, 'Lease Lab spec run (npm run sim -- spec --db): its sessions'' login; dropped with the database of the same name');
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT %I TO %I', own, current_user);
  END IF;
END
$$;
