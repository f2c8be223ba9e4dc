-- Removes everything live mode created (asked for with npm run live -- --drop, after the comment check):
-- the lab's own objects by name, then the schema, never with CASCADE. An object of anyone else's that
-- depends on them (a view on lease_lab.runs, a foreign key to it, a table put in the schema) makes the
-- server refuse, naming it, and nothing is dropped: the statements run as one implicit transaction.
DROP TABLE IF EXISTS lease_lab.runs;
DROP FUNCTION IF EXISTS lease_lab.now();
DROP SCHEMA lease_lab;
