-- Removes everything live mode created (asked for with npm run live -- --drop, after the comment check).
DROP SCHEMA lease_lab CASCADE;
