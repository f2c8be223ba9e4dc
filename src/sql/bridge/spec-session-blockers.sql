-- What holds the lock a session's backend ($1) waits for, and whether each holder is itself running a
-- statement ('active': it may still finish, or the deadlock detector may end the wait) or idle in its
-- transaction (then only a later step of the permutation could free the lock).
SELECT a.pid, a.state
FROM pg_catalog.pg_stat_activity AS a
WHERE a.pid = ANY (pg_catalog.pg_blocking_pids($1::integer));
