-- What a spec may leave in its PGlite cluster that a fresh one does not hold (src/db/pglite-spec.ts, where
-- tests reuse a cluster for the next spec only if this answers as it did on the fresh one): objects made
-- after initdb (oid 16384, FirstNormalObjectId, and up), comments and grants on built-in objects, settings
-- kept per database or role, prepared transactions, advisory locks, LISTEN channels, open cursors,
-- statements prepared with SQL's PREPARE, session settings, the current role.
SELECT md5(concat_ws('|',
  (SELECT count(*) FROM pg_class WHERE oid >= 16384),
  (SELECT count(*) FROM pg_type WHERE oid >= 16384),
  (SELECT count(*) FROM pg_proc WHERE oid >= 16384),
  (SELECT count(*) FROM pg_namespace WHERE oid >= 16384),
  (SELECT count(*) FROM pg_operator WHERE oid >= 16384),
  (SELECT count(*) FROM pg_collation WHERE oid >= 16384),
  (SELECT count(*) FROM pg_authid WHERE oid >= 16384),
  (SELECT count(*) FROM pg_database WHERE oid >= 16384),
  (SELECT count(*) FROM pg_extension WHERE oid >= 16384),
  (SELECT count(*) FROM pg_largeobject_metadata),
  (SELECT count(*) FROM pg_event_trigger),
  (SELECT count(*) FROM pg_publication),
  (SELECT count(*) FROM pg_foreign_server),
  (SELECT count(*) FROM pg_db_role_setting),
  (SELECT count(*) FROM pg_default_acl),
  (SELECT md5(string_agg(objoid || ' ' || classoid || ' ' || objsubid || ' ' || description, ',' ORDER BY objoid, classoid, objsubid)) FROM pg_description),
  (SELECT md5(string_agg(oid || ' ' || relacl::text, ',' ORDER BY oid)) FROM pg_class WHERE relacl IS NOT NULL),
  (SELECT md5(string_agg(oid || ' ' || proacl::text, ',' ORDER BY oid)) FROM pg_proc WHERE proacl IS NOT NULL),
  (SELECT md5(string_agg(oid || ' ' || nspacl::text, ',' ORDER BY oid)) FROM pg_namespace WHERE nspacl IS NOT NULL),
  (SELECT count(*) FROM pg_prepared_xacts),
  (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'),
  (SELECT count(*) FROM pg_listening_channels()),
  (SELECT count(*) FROM pg_cursors),
  (SELECT count(*) FROM pg_prepared_statements WHERE from_sql),
  (SELECT md5(string_agg(name || '=' || setting, ',' ORDER BY name)) FROM pg_settings WHERE source NOT IN ('default', 'configuration file', 'command line', 'environment variable', 'override', 'client')),
  current_user,
  session_user
)) AS state;
