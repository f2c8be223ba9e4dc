/**
 * A spec step's SQL read with PostgreSQL's own parser, for the engine that follows a spec's sessions on one
 * PGlite (src/db/pglite-spec.ts): the step split into its statements, each with what the engine must know
 * before sending it — whether it begins or ends a transaction, the NOWAIT twins that tell whether it would
 * wait for a row lock (a lock wait never returns inside PGlite), the table it writes, the functions it
 * calls — or why the engine cannot follow it honestly (then the permutation is refused, never guessed).
 *
 * What the NOWAIT twins can see: row locks another session's parked transaction holds on the rows the
 * statement would lock, update or delete. What they cannot: a wait for a table lock, an insert into a unique
 * index waiting for another session's uncommitted key, a foreign-key check or a trigger, a wait inside a
 * function. The first is refused here (no table locks or schema changes inside sessions); the engine checks
 * the others against the catalog when the statement runs.
 */
import { deparseSync } from 'pgsql-deparser';
import { loadParser, type ParseTree } from './parser';
import { type AdvisoryUse, advisoryUse, withoutAdvisoryCalls } from './spec-advisory';
import { body, type Json, type JsonObject, list, names, nodeOf, walk } from './tree';

const PG_VERSION = 180004;

interface TableName {
  schema: string | null;
  name: string;
}

type SpecStatementKind = 'begin' | 'commit' | 'rollback' | 'read' | 'write';

export interface SpecStatement {
  /** The statement as written (what is sent). */
  text: string;
  kind: SpecStatementKind;
  /** Why the engine on one PGlite cannot follow it, or null. */
  refusal: string | null;
  /**
   * NOWAIT twins, run before the statement: 55P03 means it would wait. Empty: it cannot wait for a row
   * lock (no locking clause that waits, no UPDATE or DELETE). For an UPDATE, `noKey` is the twin for an
   * update that leaves every key column as it is (FOR NO KEY UPDATE), `key` for one that may change one.
   */
  probes: { plain: string } | { noKey: string; key: string } | null;
  /** The table an INSERT, UPDATE or DELETE writes. */
  writes: TableName | null;
  /** The columns an UPDATE sets (to tell a key update from another). */
  setColumns: string[];
  /** True for an INSERT (its unique indexes may wait for another session's uncommitted key). */
  inserts: boolean;
  /** Functions it calls, by name (a wait inside one of the spec's own functions cannot be probed). */
  functions: string[];
  /**
   * Whether its answer shows every row it locks or writes: a SELECT that locks nothing, or one that locks
   * the rows of the one table it reads, at its top level. Only such statements are replayed after another
   * session committed writes (an equal answer then means the same rows).
   */
  answerShowsItsLocks: boolean;
  /**
   * For a SELECT that locks the rows it answers from one table (one locking clause, at its top level): that
   * table and the lock, so a replay can lock the same rows again by their key (`relockByKey`) instead of
   * looking again (SKIP LOCKED would find other rows once another session let go of its own).
   */
  locksAnswered: { table: TableName; relation: Json; strength: string } | null;
  /**
   * SET, RESET or set_config(): on a server it changes its own connection only, on PGlite the one backend
   * every session shares (so even the spec's setup may not).
   */
  changesSettings: boolean;
  /** The session-level advisory locks it takes or releases, which the engine keeps per session. */
  advisory: AdvisoryUse | null;
  /** It takes row locks: a locking clause anywhere in it (SKIP LOCKED and NOWAIT too), or an INSERT, UPDATE or DELETE. */
  locksRows: boolean;
  /** The parser rejected the text, which is sent as it is: nothing above was read from it. */
  unparsed?: true;
}

/** Built-in functions whose effect reaches across sessions or shows that all sessions are one backend. */
const SESSION_FUNCTIONS: readonly [RegExp, string][] = [
  [/^pg_notify$/, 'NOTIFY goes to the one PGlite backend that all sessions share'],
  [/^(pg_backend_pid|pg_blocking_pids|pg_isolation_test_session_is_blocked|pg_safe_snapshot_blocking_pids)$/, 'all sessions are one PGlite backend'],
  [/^(pg_cancel_backend|pg_terminate_backend)$/, 'all sessions are one PGlite backend'],
  [
    /^(txid_current|txid_current_if_assigned|pg_current_xact_id|pg_current_xact_id_if_assigned|txid_current_snapshot|pg_current_snapshot)$/,
    'transaction ids differ when the lab replays a transaction',
  ],
  [/^(set_config|setseed)$/, "settings are the one PGlite backend's, shared by all sessions"],
  [/^(currval|lastval)$/, "a sequence's last value is per session on a server, and all sessions are one PGlite backend"],
  [/^(pg_sleep|pg_sleep_for|pg_sleep_until)$/, 'a sleep in a session runs while every other session waits on PGlite'],
];

/** Views that show the sessions themselves, which on PGlite are one backend and parked transactions. */
const SESSION_VIEWS = new Set(['pg_locks', 'pg_stat_activity', 'pg_prepared_xacts', 'pg_stat_database', 'pg_prepared_statements']);

const READ_COMMITTED = 'read committed';

function deparseStatement(statement: Json): string {
  const tree: ParseTree = { version: PG_VERSION, stmts: [{ stmt: statement as Record<string, unknown> }] };
  return (deparseSync as unknown as (t: ParseTree) => string)(tree);
}

/** Every locking clause that would wait becomes NOWAIT (SKIP LOCKED stays: it never waits). */
function noWaitEverywhere(root: Json): boolean {
  let changed = false;
  walk(root, (node) => {
    if (node.type === 'LockingClause' && (node.body.waitPolicy ?? 'LockWaitBlock') === 'LockWaitBlock') {
      node.body.waitPolicy = 'LockWaitError';
      changed = true;
    }
    return true;
  });
  return changed;
}

function isolationRefusal(options: Json | undefined): string | null {
  for (const option of list(options)) {
    const def = body(option, 'DefElem');
    if (def?.defname !== 'transaction_isolation') continue;
    const level = body(body(def.arg, 'A_Const')?.sval, 'String')?.sval ?? (body(def.arg, 'A_Const')?.sval as JsonObject | undefined)?.sval;
    if (typeof level === 'string' && level !== READ_COMMITTED) {
      return `its transaction runs at ${level.toUpperCase()}, whose snapshot must outlive other sessions' commits: PGlite replays a parked transaction with fresh snapshots`;
    }
  }
  return null;
}

function tableOf(relation: Json | undefined): TableName | null {
  const range = relation && typeof relation === 'object' && !Array.isArray(relation) ? (relation as JsonObject) : null;
  const name = range?.relname;
  if (typeof name !== 'string') return null;
  return { schema: typeof range!.schemaname === 'string' ? range!.schemaname : null, name };
}

/** SELECT 1 FROM <target> [, FROM items] WHERE … FOR <strength> OF <target> NOWAIT: the rows it would lock. */
function rowTwin(stmt: JsonObject, strength: string, extraFrom: Json[]): string {
  const relation = stmt.relation as JsonObject;
  const alias = (relation.alias as JsonObject | undefined)?.aliasname;
  const lockedName = typeof alias === 'string' ? alias : (relation.relname as string);
  const select: JsonObject = {
    targetList: [{ ResTarget: { val: { A_Const: { ival: { ival: 1 } } } } }],
    fromClause: [{ RangeVar: relation }, ...extraFrom] as Json[],
    limitOption: 'LIMIT_OPTION_DEFAULT',
    lockingClause: [
      { LockingClause: { lockedRels: [{ RangeVar: { relname: lockedName, inh: true, relpersistence: 'p' } }], strength, waitPolicy: 'LockWaitError' } },
    ],
    op: 'SETOP_NONE',
  };
  if (stmt.whereClause) select.whereClause = stmt.whereClause;
  if (stmt.withClause) select.withClause = stmt.withClause;
  const copy = JSON.parse(JSON.stringify({ SelectStmt: select })) as Json;
  noWaitEverywhere(copy);
  return deparseStatement(copy);
}

/**
 * SELECT 1 FROM <its table> WHERE <key>::text = ANY (ARRAY[<the keys it answered>]) FOR <its lock> NOWAIT:
 * the rows a locking SELECT answered, locked again, as text the deparser quotes.
 */
export function relockByKey(locks: NonNullable<SpecStatement['locksAnswered']>, key: string, keys: readonly string[]): string {
  const column = { ColumnRef: { fields: [{ String: { sval: key } }] } };
  const select = {
    SelectStmt: {
      targetList: [{ ResTarget: { val: { A_Const: { ival: { ival: 1 } } } } }],
      fromClause: [{ RangeVar: locks.relation }],
      whereClause: {
        A_Expr: {
          kind: 'AEXPR_OP_ANY',
          name: [{ String: { sval: '=' } }],
          lexpr: { TypeCast: { arg: column, typeName: { names: [{ String: { sval: 'text' } }], typemod: -1 } } },
          rexpr: {
            TypeCast: {
              arg: { A_ArrayExpr: { elements: keys.map((value) => ({ A_Const: { sval: { sval: value } } })) } },
              typeName: { names: [{ String: { sval: 'text' } }], typemod: -1, arrayBounds: [{ Integer: { ival: -1 } }] },
            },
          },
        },
      },
      limitOption: 'LIMIT_OPTION_DEFAULT',
      lockingClause: [{ LockingClause: { strength: locks.strength, waitPolicy: 'LockWaitError' } }],
      op: 'SETOP_NONE',
    },
  };
  return deparseStatement(JSON.parse(JSON.stringify(select)) as Json);
}

function hasLockingClause(root: Json): boolean {
  let found = false;
  walk(root, (node) => {
    if (node.type === 'LockingClause') found = true;
    return !found;
  });
  return found;
}

/** A statement sent as it is: it reads, waits for nothing and is refused for nothing (until classify says more). */
function plainStatement(text: string): SpecStatement {
  return {
    text,
    kind: 'read',
    refusal: null,
    probes: null,
    writes: null,
    setColumns: [],
    inserts: false,
    functions: [],
    answerShowsItsLocks: false,
    locksRows: false,
    locksAnswered: null,
    changesSettings: false,
    advisory: null,
  };
}

/** A statement the engine can follow, or the one-line reason it cannot. */
function classify(stmt: Json, text: string): SpecStatement {
  const node = nodeOf(stmt)!;
  const base = plainStatement(text);
  const refuse = (why: string): SpecStatement => ({ ...base, refusal: why });
  walk(stmt, (visit) => {
    if (visit.type === 'FuncCall') {
      const name = names(visit.body.funcname).at(-1);
      if (name) base.functions.push(name);
    }
    return true;
  });
  base.changesSettings = node.type === 'VariableSetStmt' || base.functions.includes('set_config');
  for (const name of base.functions) {
    for (const [pattern, why] of SESSION_FUNCTIONS) if (pattern.test(name)) return refuse(`it calls ${name}(): ${why}`);
  }
  const advisory = advisoryUse(stmt);
  if (typeof advisory === 'string') return refuse(advisory);
  base.advisory = advisory;
  // The NOWAIT twins are built from the statement without its advisory calls (a rollback keeps a session lock).
  const probed = nodeOf(advisory ? withoutAdvisoryCalls(stmt) : stmt)!.body;
  let view: string | null = null;
  walk(stmt, (visit) => {
    if (visit.type === 'RangeVar' && typeof visit.body.relname === 'string' && SESSION_VIEWS.has(visit.body.relname)) view = visit.body.relname;
    return true;
  });
  if (view) return refuse(`it reads ${view}, which on PGlite shows one backend and the lab's parked transactions, not the spec's sessions`);
  let writingWith = false;
  walk(stmt, (visit) => {
    if (visit.type === 'CommonTableExpr' && ['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt'].includes(nodeOf(visit.body.ctequery)?.type ?? ''))
      writingWith = true;
    return true;
  });
  if (writingWith) return refuse('a WITH query that writes: the lab cannot probe whether it would wait');

  switch (node.type) {
    case 'TransactionStmt': {
      const kind = node.body.kind;
      if (kind === 'TRANS_STMT_BEGIN' || kind === 'TRANS_STMT_START') {
        const why = isolationRefusal(node.body.options);
        return why ? refuse(why) : { ...base, kind: 'begin', answerShowsItsLocks: true };
      }
      if (kind === 'TRANS_STMT_COMMIT') return { ...base, kind: 'commit' };
      if (kind === 'TRANS_STMT_ROLLBACK') return { ...base, kind: 'rollback' };
      return refuse(
        `${String(kind).replace('TRANS_STMT_', '').replaceAll('_', ' ')} inside a session: the lab parks each session's transaction as a prepared transaction and cannot follow savepoints or two-phase commit of the spec's own`,
      );
    }
    case 'SelectStmt': {
      if (node.body.intoClause) return refuse('SELECT INTO creates a table: schema changes inside a session take table locks the NOWAIT probe cannot see');
      const copy = structuredClone({ SelectStmt: probed }) as Json;
      const waits = noWaitEverywhere(copy);
      let clauses = 0;
      walk(stmt, (visit) => {
        if (visit.type === 'LockingClause') clauses += 1;
        return true;
      });
      const topLevel = list(node.body.lockingClause).length;
      const oneTable = list(node.body.fromClause).length === 1 && nodeOf(list(node.body.fromClause)[0])?.type === 'RangeVar' && !node.body.withClause;
      const answerShowsItsLocks = clauses === 0 || (clauses === topLevel && oneTable);
      const relation = oneTable ? body(list(node.body.fromClause)[0], 'RangeVar') : null;
      const clause = topLevel === 1 ? body(list(node.body.lockingClause)[0], 'LockingClause') : null;
      const locksAnswered =
        answerShowsItsLocks && relation && clause && list(clause.lockedRels).length === 0 && typeof clause.strength === 'string'
          ? { table: tableOf(relation)!, relation, strength: clause.strength }
          : null;
      return { ...base, kind: 'read', probes: waits ? { plain: deparseStatement(copy) } : null, answerShowsItsLocks, locksAnswered, locksRows: clauses > 0 };
    }
    case 'UpdateStmt': {
      if (node.body.whereClause && JSON.stringify(node.body.whereClause).includes('CurrentOfExpr')) return refuse('WHERE CURRENT OF: cursors are not followed');
      const setColumns = list(node.body.targetList)
        .map((target) => body(target, 'ResTarget')?.name)
        .filter((name): name is string => typeof name === 'string');
      const from = list(probed.fromClause);
      return {
        ...base,
        kind: 'write',
        locksRows: true,
        writes: tableOf(node.body.relation),
        setColumns,
        probes: { noKey: rowTwin(probed, 'LCS_FORNOKEYUPDATE', from), key: rowTwin(probed, 'LCS_FORUPDATE', from) },
      };
    }
    case 'DeleteStmt': {
      if (node.body.whereClause && JSON.stringify(node.body.whereClause).includes('CurrentOfExpr')) return refuse('WHERE CURRENT OF: cursors are not followed');
      return {
        ...base,
        kind: 'write',
        locksRows: true,
        writes: tableOf(node.body.relation),
        probes: { plain: rowTwin(probed, 'LCS_FORUPDATE', list(probed.usingClause)) },
      };
    }
    case 'InsertStmt': {
      if (hasLockingClause(stmt)) return refuse('an INSERT whose SELECT locks rows: the lab cannot probe whether it would wait');
      if ((node.body.onConflictClause as JsonObject | undefined)?.action === 'ONCONFLICT_UPDATE') {
        return refuse("INSERT … ON CONFLICT DO UPDATE: a wait for the conflicting row's lock is one the lab does not probe");
      }
      return { ...base, kind: 'write', writes: tableOf(node.body.relation), inserts: true, locksRows: true };
    }
    case 'VariableSetStmt':
    case 'VariableShowStmt':
      return refuse('SET and SHOW act on the one PGlite backend that all sessions share');
    case 'LockStmt':
      return refuse('LOCK TABLE: a wait for a table lock is one the NOWAIT probe cannot see');
    case 'ListenStmt':
    case 'UnlistenStmt':
    case 'NotifyStmt':
      return refuse('LISTEN/NOTIFY: every session is the one PGlite backend, and a transaction that notifies cannot be parked');
    default:
      return refuse(
        `${node.type.replace(/Stmt$/, '')} statements inside a session: only BEGIN, COMMIT, ROLLBACK, SELECT, INSERT, UPDATE and DELETE are followed on PGlite`,
      );
  }
}

/**
 * The statements of a step, classified; a text PostgreSQL's parser rejects is one statement the engine
 * sends as it is (the server's own syntax error comes back, and a statement that does not parse waits for
 * nothing).
 */
export async function specStatements(sql: string): Promise<SpecStatement[]> {
  const parser = await loadParser();
  const parsed = parser.parse(sql);
  if (!parsed.ok) {
    return [{ ...plainStatement(sql), unparsed: true }];
  }
  return (parsed.tree.stmts ?? []).map((entry) => {
    const start = entry.stmt_location ?? 0;
    const text = (entry.stmt_len ? sql.slice(start, start + entry.stmt_len) : sql.slice(start)).trim();
    return classify(entry.stmt as Json, text);
  });
}
