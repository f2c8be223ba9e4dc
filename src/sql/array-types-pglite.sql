-- Each type that has an array type, and that array type: what PGlite needs to turn array values in
-- results into JavaScript arrays. PGlite asks this at every start; the lab asks it on the first query()
-- instead (the lab's own statements never return arrays).
SELECT DISTINCT element.oid, element.typarray
FROM pg_catalog.pg_type AS array_type
JOIN pg_catalog.pg_type AS element ON element.oid = array_type.typelem
WHERE array_type.typcategory = 'A'
ORDER BY element.oid;
