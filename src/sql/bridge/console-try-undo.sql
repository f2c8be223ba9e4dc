ROLLBACK TO SAVEPOINT lease_lab_console_try;
