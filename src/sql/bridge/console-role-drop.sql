-- After the schema lease_lab is dropped (its grants went with it): the console's login role, only if it
-- carries the mark of console-role-create.sql. A privilege someone has granted it since (CONNECT on a
-- database, a table of theirs) makes the server refuse, naming it, and the role stays.
DO $$
DECLARE
  console text := current_setting('lease_lab.login_role');
BEGIN
  IF pg_catalog.shobj_description(pg_catalog.to_regrole(pg_catalog.quote_ident(console)), 'pg_authid')
     = 'Lease Lab live mode (npm run live): the console''s login; dropped with the schema lease_lab' THEN
    EXECUTE format('DROP ROLE %I', console);
  END IF;
END
$$;
