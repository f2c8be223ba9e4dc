-- A session whose transaction failed holds no locks until it ends; to give its next statement the
-- server's own answer in that state, the lab opens a transaction and fails it with this statement (its
-- error is the lab's, never reported), then sends the session's statement (src/db/pglite-spec.ts).
SELECT 1 / 0 AS lease_lab_fails_the_transaction;
