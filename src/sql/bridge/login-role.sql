-- Inside the transaction that sets up or drops a role the lab logs in as (console-role-create.sql,
-- console-role-drop.sql, own-role-create.sql), for that transaction only: the role's name ($1) and, when
-- it gets a new password, that password's SCRAM verifier ($2, computed by the bridge: the password itself
-- never reaches the server, its log or pg_stat_activity).
SELECT set_config('lease_lab.login_role', $1, true),
       set_config('lease_lab.login_verifier', coalesce($2, ''), true);
