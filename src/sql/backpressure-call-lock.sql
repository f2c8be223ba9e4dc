-- Starting a model call takes turns, for the same reason as claiming: the cap on calls in flight is a
-- count, and two sessions counting at once would both see one slot free.
SELECT pg_advisory_xact_lock(hashtext('lease_lab.model_call'));
