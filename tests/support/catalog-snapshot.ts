/**
 * What a database holds outside the lab's schema, as text to compare before and after a hostile case:
 * schemas, tables and views (with their row counts and a digest of their rows for tables), constraints,
 * functions, operators and domains, the roles, their memberships and table privileges, the database's own
 * privileges, replication slots, the database's session advisory locks, large objects and extensions. Equal snapshots:
 * nothing outside lease_lab changed. Roles are the cluster's, shared by test files running side by side:
 * the lab's own (lease_lab_console_<oid>, lease_lab_cli_…, documented in the README) and the tests'
 * (lease_lab_*) are left out of the list.
 */
import type pg from 'pg';

export async function catalogSnapshot(client: pg.Client, labSchema = 'lease_lab'): Promise<Record<string, unknown>> {
  const outside = `n.nspname NOT IN ('pg_catalog', 'information_schema', $1) AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'`;
  const relations = await client.query(
    `SELECT n.nspname || '.' || c.relname AS name, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${outside} ORDER BY 1`,
    [labSchema],
  );
  const rowCounts: Record<string, string> = {};
  for (const row of relations.rows as { name: string; relkind: string }[]) {
    if (row.relkind !== 'r') continue;
    const [schema, table] = row.name.split('.');
    const counted = await client.query(
      `SELECT count(*)::text AS n, coalesce(md5(string_agg(t::text, ',' ORDER BY t::text)), '') AS sum FROM ${client.escapeIdentifier(schema!)}.${client.escapeIdentifier(table!)} t`,
    );
    rowCounts[row.name] = `${counted.rows[0].n}:${counted.rows[0].sum}`;
  }
  const constraints = await client.query(
    `SELECT n.nspname || '.' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS c FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE ${outside} ORDER BY 1`,
    [labSchema],
  );
  const roles = await client.query(
    `SELECT rolname, rolsuper, rolcreaterole, rolcanlogin FROM pg_roles WHERE rolname NOT LIKE 'pg\\_%' AND rolname NOT LIKE 'lease\\_lab\\_%' ORDER BY 1`,
  );
  const grants = await client.query(
    `SELECT grantee, table_schema, table_name, privilege_type FROM information_schema.role_table_grants WHERE table_schema NOT IN ('pg_catalog', 'information_schema', $1) ORDER BY 1, 2, 3, 4`,
    [labSchema],
  );
  const schemas = await client.query(
    `SELECT n.nspname, pg_get_userbyid(n.nspowner) AS owner, n.nspacl::text AS acl FROM pg_namespace n WHERE ${outside} ORDER BY 1`,
    [labSchema],
  );
  const functions = await client.query(
    `SELECT n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') ' || md5(p.prosrc) AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${outside} ORDER BY 1`,
    [labSchema],
  );
  const operators = await client.query(
    `SELECT n.nspname || '.' || o.oprname || ' ' || o.oprcode::text AS o FROM pg_operator o JOIN pg_namespace n ON n.oid = o.oprnamespace WHERE ${outside} ORDER BY 1`,
    [labSchema],
  );
  const domains = await client.query(
    `SELECT n.nspname || '.' || t.typname AS d FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.typtype = 'd' AND ${outside} ORDER BY 1`,
    [labSchema],
  );
  const memberships = await client.query(
    `SELECT g.rolname AS role, m.rolname AS member FROM pg_auth_members a JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
     WHERE g.rolname NOT LIKE 'lease\\_lab\\_%' AND m.rolname NOT LIKE 'lease\\_lab\\_%' ORDER BY 1, 2`,
  );
  const database = await client.query('SELECT datacl::text AS acl FROM pg_database WHERE datname = current_database()');
  const slots = await client.query('SELECT slot_name, slot_type FROM pg_replication_slots ORDER BY 1');
  // pg_locks is the whole server's: only this database's advisory locks (a lock is taken in one database and
  // conflicts only there). A spec of PostgreSQL's own (lock-committed-update) takes one in its throwaway database,
  // and a run of it cut short beside live-hostile once left one that broke live-hostile's comparison.
  const advisory = await client.query(
    `SELECT classid, objid, objsubid FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY 1, 2, 3`,
  );
  const largeObjects = await client.query('SELECT count(*)::int AS n FROM pg_largeobject_metadata');
  const extensions = await client.query('SELECT extname FROM pg_extension ORDER BY 1');
  return {
    schemas: schemas.rows,
    relations: relations.rows,
    functions: functions.rows,
    operators: operators.rows,
    domains: domains.rows,
    memberships: memberships.rows,
    database: database.rows,
    rowCounts,
    constraints: constraints.rows,
    roles: roles.rows,
    grants: grants.rows,
    slots: slots.rows,
    advisory: advisory.rows,
    largeObjects: largeObjects.rows,
    extensions: extensions.rows,
  };
}
