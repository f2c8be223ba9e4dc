-- The role the console's statements run under (SET LOCAL ROLE, live-console-set-role.sql): NOLOGIN, no
-- attributes, only USAGE on the lab's schema and SELECT on its table. Roles belong to the whole cluster,
-- not one database: it is created only if absent and is left in place when the lab's schema is dropped.
-- The connecting role is made a member so it may SET ROLE to it (a superuser may anyway).
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'lease_lab_console') THEN
    CREATE ROLE lease_lab_console NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
  END IF;
  IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
     AND NOT pg_catalog.pg_has_role(current_user, 'lease_lab_console', 'USAGE') THEN
    EXECUTE format('GRANT lease_lab_console TO %I', current_user);
  END IF;
END
$$;
GRANT USAGE ON SCHEMA lease_lab TO lease_lab_console;
GRANT SELECT ON lease_lab.runs TO lease_lab_console;
