-- Before trying a query the lexer did not take for a cursor: if Postgres will not declare it, roll back to here
-- and run it as it is, so that Postgres says in its own words why it cannot run (a write, read-only).
SAVEPOINT lease_lab_console_try;
