-- At the end of a spec run: the statement that drops its throwaway database ($1), returned only while the
-- database still carries the run's note ($2): a database of anyone else's is never named here. WITH (FORCE)
-- ends what is still connected to it (only the run's own sessions ever are).
SELECT pg_catalog.format('DROP DATABASE %I WITH (FORCE)', datname) AS drop_database
FROM pg_catalog.pg_database
WHERE datname = $1::text
  AND pg_catalog.shobj_description(oid, 'pg_database') = $2::text;
