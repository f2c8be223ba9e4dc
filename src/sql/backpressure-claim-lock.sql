-- Claims take turns. A claim counts the running runs and then takes one; two sessions counting at the
-- same moment would both see a tenant one below its limit, and both claim. This lock is held until the
-- transaction ends, so each claim's count (a new snapshot under READ COMMITTED) includes every claim
-- committed before it.
SELECT pg_advisory_xact_lock(hashtext('lease_lab.claim'));
