-- The session-level advisory locks PGlite's one backend holds, keyed as src/sql/analyze/spec-advisory.ts
-- keys them (classid:objid:objsubid), with their mode: after a spec step that takes or releases one, the
-- engine (src/db/pglite-spec.ts) reads here which it now holds. A prepared transaction's locks have no pid.
SELECT classid::text || ':' || objid::text || ':' || objsubid::text AS key, mode
FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted;
