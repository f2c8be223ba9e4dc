-- The whole table in one line per tenant: what the charts draw for this second.
SELECT tenant,
       count(*) FILTER (WHERE status = 'pending')::integer          AS pending,
       count(*) FILTER (WHERE status = 'running')::integer          AS running,
       count(*) FILTER (WHERE call_started_at IS NOT NULL)::integer AS calling,
       count(*) FILTER (WHERE status = 'done')::integer             AS done,
       count(*) FILTER (WHERE status = 'stopped_cost')::integer     AS stopped,
       coalesce(sum(cost_cents), 0)::integer                        AS cost_cents
FROM runs
GROUP BY tenant
ORDER BY tenant;
