-- Live mode: everything the lab creates on a real server lives in this one schema, so it can be dropped
-- whole (npm run live -- --drop) and never touches anything else. The comment marks the schema as the
-- lab's: the bridge drops or reuses a schema named lease_lab only when it carries exactly this comment.
-- lease_lab.now() stands in for sim.now(); the tables are schema.sql's own, created with lease_lab first
-- on the search_path (see ensureLabSchema in src/db/postgres-lab.ts).
CREATE SCHEMA lease_lab;

COMMENT ON SCHEMA lease_lab IS 'Lease Lab live mode (npm run live); drop it with npm run live -- --drop <url>';

CREATE FUNCTION lease_lab.now() RETURNS timestamptz
  LANGUAGE sql STABLE
  AS $$ SELECT current_setting('sim.now')::timestamptz $$;
