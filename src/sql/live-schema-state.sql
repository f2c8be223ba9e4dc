-- Is there a schema named lease_lab, and what does its comment say (is it the lab's own)?
SELECT obj_description(oid, 'pg_namespace') AS note
FROM pg_namespace
WHERE nspname = 'lease_lab';
