SELECT gid FROM pg_prepared_xacts ORDER BY gid;
