-- The observer only reads and resets; it must never wait for long on someone else's lock.
SET lock_timeout = '10s';
