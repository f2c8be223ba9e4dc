-- The command line's session (npm run sim -- run … --db URL): in the run's own schema ($1, see
-- own-schema-create.sql), runs resolves to its table and its now() shadows pg_catalog.now(), as lease_lab
-- does for live mode. The name is kept in a setting for own-schema-create.sql and own-schema-drop.sql.
SELECT set_config('lease_lab.own_schema', $1, false),
       set_config('search_path', pg_catalog.quote_ident($1) || ', pg_catalog', false);
