-- What a spec statement's target table ($1 schema or null, $2 name) holds that a NOWAIT probe cannot
-- see (src/db/pglite-spec.ts): triggers (a foreign key's checks are triggers too), rules, its kind (a
-- view writes through rules or triggers), its key columns (columns of unique indexes without a
-- predicate or expression: an UPDATE that sets one locks the row FOR UPDATE, else FOR NO KEY UPDATE),
-- whether it has a unique (or exclusion) index at all (spec-table-written-by-parked.sql then tells, by its
-- oid, whether another session's open transaction wrote it); and its primary key's one
-- column (null for none or several), by which a replayed locking SELECT re-locks the rows it answered;
-- and whether an insert draws from a sequence (identity or nextval() default): a sequence is not rolled
-- back, so a replayed insert would draw other numbers.
WITH target AS (
  SELECT c.oid, c.relkind
  FROM pg_class AS c
  JOIN pg_namespace AS n ON n.oid = c.relnamespace
  WHERE c.relname = $2 AND (CASE WHEN $1::text IS NULL THEN n.nspname = ANY (current_schemas(false)) ELSE n.nspname = $1 END)
  ORDER BY array_position(current_schemas(false), n.nspname::text)
  LIMIT 1
)
SELECT
  t.oid,
  t.relkind::text AS relkind,
  EXISTS (SELECT 1 FROM pg_trigger AS g WHERE g.tgrelid = t.oid) AS has_triggers,
  EXISTS (SELECT 1 FROM pg_rewrite AS r WHERE r.ev_class = t.oid AND r.rulename <> '_RETURN') AS has_rules,
  EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = t.oid AND (i.indisunique OR i.indisexclusion)) AS has_unique,
  coalesce((
    SELECT array_agg(DISTINCT a.attname::text)
    FROM pg_index AS i
    JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = ANY (i.indkey::int2[])
    WHERE i.indrelid = t.oid AND i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
  ), '{}') AS key_columns,
  (
    SELECT a.attname::text
    FROM pg_index AS i
    JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
    WHERE i.indrelid = t.oid AND i.indisprimary AND i.indnkeyatts = 1
  ) AS primary_key,
  EXISTS (
    SELECT 1 FROM pg_attribute AS a
    LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
      AND (a.attidentity <> '' OR pg_get_expr(d.adbin, d.adrelid) LIKE '%nextval(%')
  ) AS draws_sequence
FROM target AS t;
