/**
 * Whether a spec's tables can be set back between permutations by emptying them and running its setup's
 * row statements again, instead of its teardown and the whole setup (src/db/pglite-spec.ts). On PGlite
 * the DDL was most of a permutation: CREATE TABLE, its index and DROP TABLE create and unlink files in the
 * in-memory file system. TRUNCATE gives each table and index an empty file again, as CREATE did, and the
 * setup's INSERT, UPDATE and DELETE then run, in their order, on the same empty files: the same rows on the
 * same pages at the same places (ctid), the same empty-then-filled indexes, the table's pg_class figures.
 *
 * What still differs is what a new CREATE would give afresh: the tables' oids (and their row types'), the
 * transaction ids the setup used up, the statistics counters of the tables, the catalogs' dead rows, and an
 * index's relpages and reltuples in pg_class (0 and -1 after TRUNCATE, 1 and 0 after CREATE INDEX; measured
 * on PGlite): the planner reads those only for a partial index (for any other it counts the index's pages
 * itself and takes the table's row estimate), so a partial index keeps the full reset. Only a statement that
 * reads them sees the rest: a catalog or statistics view, a system column other than ctid, a cast to an oid
 * type, a pg_ function. So the reset is used only when the setup holds nothing but plain tables, their
 * indexes and row statements, the teardown only drops those tables, and every step, session block and check
 * only reads or writes rows of those tables in those ways; every other spec keeps the full teardown and setup.
 */
import { loadParser } from './parser';
import { body, type Json, type JsonObject, list, names, nodeOf, walk } from './tree';

/** How to set the spec's tables back: empty these, then run each setup block's row statements. */
export interface RowReset {
  /** `TRUNCATE a, b` of every table the setup creates. */
  truncate: string;
  /** Per setup block, in order: its row statements as one text (empty: none), sent as the block was. */
  rows: string[];
}

/** Sequence functions: a table default or statement drawing numbers that no TRUNCATE gives back. */
const SEQUENCE_FUNCTIONS = new Set(['nextval', 'setval', 'currval', 'lastval']);
const SERIAL_TYPES = new Set(['serial', 'serial2', 'serial4', 'serial8', 'smallserial', 'bigserial']);
/** System columns whose values a new CREATE (a new oid, other transaction ids) would change. */
const SYSTEM_COLUMNS = new Set(['tableoid', 'xmin', 'xmax', 'cmin', 'cmax']);
/** Types that show an oid or a transaction id. */
const OID_TYPES = /^(oid|xid|xid8|cid|regclass|regtype|regproc|regprocedure|regoper|regoperator|regconfig|regdictionary|regnamespace|regrole|regcollation)$/;
/** Functions that read the catalogs, statistics or transaction ids (a new CREATE changes what they answer). */
const CATALOG_FUNCTIONS = /^(pg_|to_reg|txid|age$|mxid_age$|obj_description$|col_description$|shobj_description$|format_type$|has_)/;

/** The last name of a node's type (a cast's, a column's): its typeName is a plain object, not a node. */
function typeNameOf(node: JsonObject): string | null {
  const typeName = node.typeName;
  if (!typeName || typeof typeName !== 'object' || Array.isArray(typeName)) return null;
  return names(typeName.names).at(-1) ?? null;
}

const WRITES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt']);
/** What a step, session block or check may be for the row reset: what reads or writes rows, and transaction control. */
const ROW_STATEMENTS = new Set(['SelectStmt', 'TransactionStmt', ...WRITES]);

const key = (schema: string | null, name: string) => `${schema ?? 'public'}.${name}`;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function tableKey(relation: Json | undefined): string | null {
  const range = relation && typeof relation === 'object' && !Array.isArray(relation) ? (relation as JsonObject) : null;
  if (typeof range?.relname !== 'string') return null;
  return key(typeof range.schemaname === 'string' ? range.schemaname : null, range.relname);
}

/** The table as TRUNCATE names it: quoted, with the schema it was written with. */
function quotedTable(relation: JsonObject): string {
  const name = quote(relation.relname as string);
  return typeof relation.schemaname === 'string' ? `${quote(relation.schemaname)}.${name}` : name;
}

interface Statement {
  node: { type: string; body: JsonObject };
  tree: Json;
  text: string;
}

async function statements(sql: string): Promise<Statement[] | string> {
  const parsed = (await loadParser()).parse(sql);
  if (!parsed.ok) return 'a block does not parse';
  return (parsed.tree.stmts ?? []).map((entry) => {
    const start = entry.stmt_location ?? 0;
    const text = (entry.stmt_len ? sql.slice(start, start + entry.stmt_len) : sql.slice(start)).trim();
    return { node: nodeOf(entry.stmt as Json)!, tree: entry.stmt as Json, text };
  });
}

/** The tables a statement reads or writes (CTE names left out), or why it looks at something else. */
function tablesReached(tree: Json): Set<string> | string {
  const ctes = new Set<string>();
  walk(tree, (visit) => {
    if (visit.type === 'CommonTableExpr' && typeof visit.body.ctename === 'string') ctes.add(visit.body.ctename);
    return true;
  });
  const tables = new Set<string>();
  let why: string | null = null;
  walk(tree, (visit) => {
    // The table an INSERT, UPDATE or DELETE writes is a plain object in the tree, not a RangeVar node.
    if (WRITES.has(visit.type)) tables.add(tableKey(visit.body.relation)!);
    if (visit.type === 'RangeVar' && typeof visit.body.relname === 'string') {
      if (visit.body.schemaname === undefined && ctes.has(visit.body.relname)) return true;
      tables.add(tableKey(visit.body)!);
    } else if (visit.type === 'ColumnRef') {
      const column = names(visit.body.fields).at(-1);
      if (column && SYSTEM_COLUMNS.has(column)) why ??= `it reads the system column ${column}`;
    } else if (visit.type === 'TypeCast' || visit.type === 'ColumnDef') {
      const type = typeNameOf(visit.body);
      if (type && OID_TYPES.test(type)) why ??= `it casts to ${type}`;
    } else if (visit.type === 'FuncCall') {
      const name = names(visit.body.funcname).at(-1) ?? '';
      if (CATALOG_FUNCTIONS.test(name) || SEQUENCE_FUNCTIONS.has(name)) why ??= `it calls ${name}()`;
    }
    return true;
  });
  return why ?? tables;
}

function createRefusal(create: JsonObject): string | null {
  const relation = create.relation as JsonObject;
  if (relation.relpersistence !== 'p') return 'it creates a temporary or unlogged table';
  if (create.inhRelations || create.partbound || create.partspec || create.ofTypename) return 'it creates a partition, a partitioned or an inherited table';
  let why: string | null = null;
  walk(create.tableElts ?? [], (visit) => {
    if (visit.type === 'TableLikeClause') why ??= 'it creates a table LIKE another';
    if (visit.type === 'ColumnDef' && SERIAL_TYPES.has(typeNameOf(visit.body) ?? '')) why ??= 'a serial column draws from a sequence';
    if (visit.type === 'Constraint' && visit.body.contype === 'CONSTR_IDENTITY') why ??= 'an identity column draws from a sequence';
    if (visit.type === 'Constraint' && visit.body.where_clause) why ??= 'a partial exclusion constraint';
    if (visit.type === 'FuncCall' && SEQUENCE_FUNCTIONS.has(names(visit.body.funcname).at(-1) ?? '')) why ??= 'a default draws from a sequence';
    return true;
  });
  return why;
}

/**
 * The row reset for a spec, or why it has none (then the driver runs the teardown and the setup, as the
 * isolation tester does). `setups`: its setup blocks; `teardown`: its teardown; `others`: every other SQL
 * it runs (each session's setup, steps and teardown, and its checks).
 */
export async function rowReset(setups: string[], teardown: string | null, others: string[]): Promise<RowReset | string> {
  if (setups.length === 0 || teardown === null) return 'it has no setup, or no teardown';
  const created: string[] = [];
  const quoted: string[] = [];
  /** Tables a row statement of the setup has reached: no DDL on them may follow (a row reset would run it first). */
  const reached = new Set<string>();
  /** Tables dropped IF EXISTS before their CREATE: a no-op on a cluster the teardown left clean. */
  const droppedFirst = new Set<string>();
  const rows: string[] = [];
  for (const sql of setups) {
    const parsed = await statements(sql);
    if (typeof parsed === 'string') return `its setup: ${parsed}`;
    const blockRows: string[] = [];
    for (const { node, tree, text } of parsed) {
      const { type, body: stmt } = node;
      if (type === 'CreateStmt') {
        const why = createRefusal(stmt);
        if (why) return `its setup: ${why}`;
        const table = tableKey(stmt.relation)!;
        if (created.includes(table) || reached.has(table)) return `its setup creates ${table} after using it`;
        created.push(table);
        quoted.push(quotedTable(stmt.relation as JsonObject));
      } else if (type === 'IndexStmt') {
        const table = tableKey(stmt.relation)!;
        if (stmt.whereClause) return 'its setup creates a partial index';
        if (stmt.concurrent || !created.includes(table) || reached.has(table))
          return 'its setup creates an index on a table it did not just create, or after filling it';
      } else if (type === 'DropStmt') {
        if (stmt.removeType !== 'OBJECT_TABLE' || !stmt.missing_ok) return 'its setup drops something';
        for (const object of list(stmt.objects)) {
          const parts = names(body(object, 'List')?.items);
          const table = key(parts.length > 1 ? parts.at(-2)! : null, parts.at(-1)!);
          if (created.includes(table)) return 'its setup drops a table it created';
          droppedFirst.add(table);
        }
      } else if (type === 'InsertStmt' || type === 'UpdateStmt' || type === 'DeleteStmt') {
        if (stmt.returningClause) return 'a setup statement returns rows';
        const tables = tablesReached(tree);
        if (typeof tables === 'string') return `a setup statement: ${tables}`;
        for (const table of tables) {
          if (!created.includes(table)) return `a setup statement reaches ${table}, which the setup did not create`;
          reached.add(table);
        }
        blockRows.push(text.replace(/;?\s*$/, ';'));
      } else {
        return `its setup runs ${type.replace(/Stmt$/, '')}`;
      }
    }
    rows.push(blockRows.join('\n'));
  }
  for (const table of droppedFirst) if (!created.includes(table)) return 'its setup drops a table it does not create';
  const parsedTeardown = await statements(teardown);
  if (typeof parsedTeardown === 'string') return `its teardown: ${parsedTeardown}`;
  const dropped = new Set<string>();
  for (const { node } of parsedTeardown) {
    if (node.type !== 'DropStmt' || node.body.removeType !== 'OBJECT_TABLE') return 'its teardown does more than drop tables';
    for (const object of list(node.body.objects)) {
      const parts = names(body(object, 'List')?.items);
      dropped.add(key(parts.length > 1 ? parts.at(-2)! : null, parts.at(-1)!));
    }
  }
  if (dropped.size !== created.length || created.some((table) => !dropped.has(table))) return 'its teardown does not drop exactly the tables its setup creates';
  for (const sql of others) {
    const parsed = await statements(sql);
    if (typeof parsed === 'string') return `a step, session block or check: ${parsed}`;
    for (const { node, tree } of parsed) {
      if (!ROW_STATEMENTS.has(node.type)) return `a step, session block or check runs ${node.type.replace(/Stmt$/, '')}`;
      const tables = tablesReached(tree);
      if (typeof tables === 'string') return `a step, session block or check: ${tables}`;
      for (const table of tables) if (!created.includes(table)) return `a step, session block or check reaches ${table}, which the setup did not create`;
    }
  }
  const truncate = `TRUNCATE ${quoted.join(', ')};`;
  return { truncate, rows };
}
