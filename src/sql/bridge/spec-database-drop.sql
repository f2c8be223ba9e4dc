-- At the end of a spec run: the statements that drop its throwaway database ($1) and then its role of the
-- same name, each returned only while it still carries the run's mark (the database its note $2, the role
-- spec-role-create.sql's comment): a database or role of anyone else's is never named here. WITH (FORCE)
-- ends what is still connected to the database (only the run's own sessions ever are).
SELECT (SELECT pg_catalog.format('DROP DATABASE %I WITH (FORCE)', datname)
        FROM pg_catalog.pg_database
        WHERE datname = $1::text
          AND pg_catalog.shobj_description(oid, 'pg_database') = $2::text) AS drop_database,
       (SELECT pg_catalog.format('DROP ROLE %I', rolname)
        FROM pg_catalog.pg_roles
        WHERE rolname = $1::text
          AND pg_catalog.shobj_description(oid, 'pg_authid') LIKE 'Lease Lab spec run %') AS drop_role;
