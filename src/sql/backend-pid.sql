-- The server process behind this connection: how the observer finds a worker's backend.
SELECT pg_backend_pid() AS pid;
