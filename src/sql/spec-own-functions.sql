-- Which of the functions a spec statement calls ($1, a JSON array of names) are the spec's own (not PostgreSQL's): a
-- wait inside one is one a NOWAIT probe cannot see (src/db/pglite-spec.ts).
SELECT p.proname::text AS name
FROM pg_proc AS p
JOIN pg_namespace AS n ON n.oid = p.pronamespace
WHERE p.proname::text IN (SELECT jsonb_array_elements_text($1::jsonb)) AND n.nspname NOT IN ('pg_catalog', 'information_schema')
LIMIT 1;
