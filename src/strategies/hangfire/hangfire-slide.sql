-- Follows hangfire-postgres/Hangfire.PostgreSql@942fccb:src/Hangfire.PostgreSql/PostgreSqlFetchedJob.cs
-- (the sliding invisibility timeout of PR #353, run only with UseSlidingInvisibilityTimeout, off by
-- default): every InvisibilityTimeout / 5 the worker sets fetchedat = now() on its entry, where the id
-- matches and fetchedat is still the value its own fetch (or last refresh) wrote. Another fetch changes
-- fetchedat; the lab has no per-fetch timestamp for a worker to hold, so the entry's owner ($2) stands for
-- it. Moving fetchedat moves the moment the entry may be fetched again: lease_expires_at = now() +
-- InvisibilityTimeout ($3 seconds).
UPDATE runs
SET heartbeat_at     = now(),
    lease_expires_at = now() + make_interval(secs => $3)
WHERE run_id = $1
  AND lease_owner = $2
RETURNING lease_expires_at, cancel_requested;
