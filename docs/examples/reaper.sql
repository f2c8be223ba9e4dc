-- A reaper on a timer, apart from the claim (as River's rescuer, Oban's Lifeline and many posts do it): every
-- running run whose lease has expired goes back to pending, and the claim takes pending runs only.
-- npm run sim -- check crash-orphan --claim tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql --reaper docs/examples/reaper.sql
UPDATE runs
SET status           = 'pending',
    lease_owner      = NULL,
    lease_expires_at = NULL
WHERE status = 'running'
  AND lease_expires_at < now();
