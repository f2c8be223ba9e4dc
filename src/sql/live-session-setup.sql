-- Live mode: runs resolves to lease_lab.runs and lease_lab.now() shadows pg_catalog.now(), so the lesson's
-- statements run unchanged inside the lab's own schema.
SET search_path = lease_lab, pg_catalog;
