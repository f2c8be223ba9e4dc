-- The live console's own login (the name and verifier come from login-role-secret.sql): LOGIN with a
-- fresh password at every start and nothing else: no attributes, a member of no role (so there is no role
-- it may SET ROLE to), only USAGE on the lab's schema and SELECT on its table. Everything the console may
-- do, it may do because PostgreSQL's privileges allow this role to: the learner's statement cannot switch
-- back to the bridge's role, which it never had. Created when absent and marked with the comment below; an
-- existing role is used only if it carries the mark, has no other attribute and belongs to no role: never
-- a role of someone else's, nor one that was given powers since (SQLSTATE 55000 says which).
DO $$
DECLARE
  console text := current_setting('lease_lab.login_role');
  mark constant text := 'Lease Lab live mode (npm run live): the console''s login; dropped with the schema lease_lab';
  existing pg_catalog.pg_roles%ROWTYPE;
  groups text;
BEGIN
  SELECT * INTO existing FROM pg_catalog.pg_roles WHERE rolname = console;
  IF NOT FOUND THEN
    EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS', console);
    EXECUTE format('COMMENT ON ROLE %I IS %L', console, mark);
  ELSE
    IF pg_catalog.shobj_description(existing.oid, 'pg_authid') IS DISTINCT FROM mark THEN
      RAISE EXCEPTION 'a role named % exists that the lab did not create', console USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF existing.rolsuper OR existing.rolcreaterole OR existing.rolcreatedb OR existing.rolreplication OR existing.rolbypassrls OR NOT existing.rolcanlogin THEN
      RAISE EXCEPTION 'the role % has been given attributes (superuser, CREATEROLE, CREATEDB, REPLICATION or BYPASSRLS)', console
        USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    SELECT string_agg(quote_ident(g.rolname), ', ' ORDER BY g.rolname) INTO groups
    FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
    WHERE m.member = existing.oid;
    IF groups IS NOT NULL THEN
      RAISE EXCEPTION 'the role % has been made a member of %', console, groups USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
  END IF;
  EXECUTE format('ALTER ROLE %I PASSWORD %L', console, current_setting('lease_lab.login_verifier'));
  EXECUTE format('GRANT USAGE ON SCHEMA lease_lab TO %I', console);
  EXECUTE format('GRANT SELECT ON lease_lab.runs TO %I', console);
END
$$;
