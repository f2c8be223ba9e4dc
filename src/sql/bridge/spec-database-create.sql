-- npm run sim -- spec --db: the statements that make the run's throwaway database ($1, named
-- lease_lab_spec_<pid>_<random> by the command line), owned by the run's role of the same name
-- (spec-role-create.sql), and mark it with $2, the run's note. CREATE DATABASE takes no parameters, so the
-- server quotes the name (format's %I) and the command line runs what it returns.
SELECT pg_catalog.format('CREATE DATABASE %I OWNER %I', $1::text, $1::text) AS create_database,
       pg_catalog.format('COMMENT ON DATABASE %I IS %L', $1::text, $2::text) AS mark_database;
