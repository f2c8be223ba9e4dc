-- The learner's query (in place of the line LEARNER_QUERY) fetched through a cursor that measures each row
-- on the server before it is sent: a row goes out as its record's text only while the running total of
-- those texts' bytes stays within $1; past it the row is sent without its text, so no answer larger than the
-- cap ever reaches the bridge (a value of hundreds of MB would make the driver fail to decode it).
-- ROW(q.*) names the query's columns through the relation, whatever the columns are called; the LATERAL
-- subquery writes each row's text once.
DECLARE lease_lab_console NO SCROLL CURSOR FOR
SELECT CASE WHEN lease_lab_total <= $1 THEN lease_lab_row END AS lease_lab_row, lease_lab_total
FROM (
  SELECT lease_lab_text.lease_lab_row,
         sum(octet_length(lease_lab_text.lease_lab_row)) OVER (ROWS UNBOUNDED PRECEDING) AS lease_lab_total
  FROM (
LEARNER_QUERY
  ) AS lease_lab_query,
  LATERAL (SELECT ROW(lease_lab_query.*)::text AS lease_lab_row) AS lease_lab_text
) AS lease_lab_sized;
