-- The console runs as lease_lab_console only if that role has no power of its own: a role of that name made
-- by someone else with attributes, or made a member of another role (pg_signal_backend, pg_read_server_files,
-- any role of the user's), would lend the learner's statement its privileges. Returns what is wrong, or no row.
SELECT CASE
         WHEN r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls OR r.rolcanlogin
           THEN 'the role lease_lab_console has attributes (it may log in, or is a superuser, or may create roles, databases or replicate, or bypasses row security)'
         ELSE 'the role lease_lab_console is a member of ' || (SELECT string_agg(quote_ident(g.rolname), ', ' ORDER BY g.rolname)
                                                              FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid = m.roleid
                                                              WHERE m.member = r.oid)
       END AS problem
FROM pg_catalog.pg_roles r
WHERE r.rolname = 'lease_lab_console'
  AND (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolreplication OR r.rolbypassrls OR r.rolcanlogin
       OR EXISTS (SELECT FROM pg_catalog.pg_auth_members m WHERE m.member = r.oid));
