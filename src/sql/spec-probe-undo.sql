-- The NOWAIT probe's locks (or its error) undone, inside the session's own transaction.
ROLLBACK TO SAVEPOINT lease_lab_probe;
