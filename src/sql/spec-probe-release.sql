RELEASE SAVEPOINT lease_lab_probe;
