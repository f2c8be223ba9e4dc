-- The role the live console logs in as: lease_lab_console_<this database's oid>. Roles belong to the whole
-- cluster; one per database keeps two bridges on two databases of one server from sharing (and
-- re-passwording) one role. (Two bridges on one database already share, and fight over, lease_lab.)
SELECT 'lease_lab_console_' || oid AS name
FROM pg_catalog.pg_database
WHERE datname = pg_catalog.current_database();
