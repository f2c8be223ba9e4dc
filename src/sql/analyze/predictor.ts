/**
 * The predictor: from a statement's tree and shape alone, what two workers running it in the corpus scene
 * (./scenario.ts) get on PostgreSQL at READ COMMITTED — whether B waits for A, and which rows B's
 * statement returns once A commits or once A rolls back. It interprets the statement over the scene's
 * rows with PostgreSQL's rules, not by running it:
 *   - every read sees the statement's snapshot, taken before A ends (A's uncommitted writes are invisible);
 *   - a row lock that conflicts with one A holds waits (or skips, or fails with 55P03), and A then ends;
 *   - locking or updating a row whose newest committed version is not the one the snapshot saw re-evaluates
 *     the query's conditions on that newest version, with everything else (CTE rows, sub-select values)
 *     as found before (EvalPlanQual); a finder that fails the re-check goes on to the next row it had found.
 * The ground-truth test checks on a real server that the corpus files declare what PostgreSQL does; the
 * unit test checks that this predictor agrees with every declaration, or refuses where it must.
 */
import { analyzeWith, type Shape } from './analyze';
import type { Parser } from './parser';
import type { Role } from './contract';
import { renderRows, type Scene, type SeedRun } from './scenario';
import { body, type Json, type JsonObject, list, names, nodeOf, text } from './tree';

interface Prediction {
  a: string;
  bWaits: boolean;
  bAfterCommit: string;
  bAfterRollback: string;
}

export type PredictResult = { ok: true; prediction: Prediction } | { ok: false; reason: string };

type Value = number | string | boolean | null;
type Row = Record<string, Value>;
type Strength = 'key share' | 'share' | 'no key update' | 'update';

/** Which held lock modes block which requested mode (PostgreSQL's row-lock conflict table). */
const CONFLICTS: Record<Strength, readonly Strength[]> = {
  'key share': ['update'],
  share: ['no key update', 'update'],
  'no key update': ['share', 'no key update', 'update'],
  update: ['key share', 'share', 'no key update', 'update'],
};

class CannotPredict extends Error {}
class StatementError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** The other transaction, as the running statement sees it: its locks while open, its writes once committed. */
interface Other {
  locks: Map<number, Set<Strength>>;
  writes: Map<number, Row>;
  ending: 'commit' | 'rollback';
  ended: boolean;
}

interface Run {
  rows: Row[];
  locks: Map<number, Set<Strength>>;
  writes: Map<number, Row>;
  waited: boolean;
}

function predict(statement: JsonObject, shape: Shape, scene: Scene): PredictResult {
  try {
    const update = body(statement, 'UpdateStmt');
    if (!update) throw new CannotPredict('only an UPDATE is modelled');
    const snapshot = scene.runs.map(toRow);
    const a = execute(update, scene, snapshot, scene.params.a, null);
    const b = (ending: 'commit' | 'rollback') => execute(update, scene, snapshot, scene.params.b, { locks: a.locks, writes: a.writes, ending, ended: false });
    const render = (run: Run | StatementError) => (run instanceof StatementError ? `error ${run.code}` : renderRows(shape.role as Role, run.rows));
    const attempt = (ending: 'commit' | 'rollback') => {
      try {
        return b(ending);
      } catch (error) {
        if (error instanceof StatementError) return error;
        throw error;
      }
    };
    const afterCommit = attempt('commit');
    const afterRollback = attempt('rollback');
    const waited = (run: Run | StatementError) => !(run instanceof StatementError) && run.waited;
    return {
      ok: true,
      prediction: {
        a: render(a),
        bWaits: waited(afterCommit) || waited(afterRollback),
        bAfterCommit: render(afterCommit),
        bAfterRollback: render(afterRollback),
      },
    };
  } catch (error) {
    if (error instanceof CannotPredict) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Analyze, then predict: a refused shape cannot be predicted either. */
export function predictStatement(parser: Parser, statement: string, role: Role, scene: Scene): PredictResult {
  const analysis = analyzeWith(parser, statement, role, { engineRefusals: false });
  if (!analysis.ok) return { ok: false, reason: analysis.error.message };
  // Two shapes a real server plays that this interpreter does not model: advisory locks and a recursive walk.
  if (analysis.shape.advisoryLocks.length > 0)
    return {
      ok: false,
      reason: `${analysis.shape.advisoryLocks.join(', ')}: the predictor does not model advisory locks (npm run sim -- check … --db URL plays them on a real server)`,
    };
  if (analysis.shape.recursive)
    return { ok: false, reason: 'WITH RECURSIVE: the predictor does not model a recursive walk (npm run sim -- check … --db URL plays it on a real server)' };
  const parsed = parser.parse(statement);
  if (!parsed.ok) return { ok: false, reason: parsed.error.message };
  return predict(parsed.tree.stmts![0]!.stmt as JsonObject, analysis.shape, scene);
}

function toRow(run: SeedRun): Row {
  return { tenant: 'acme', work_steps: 1, call_cost_cents: 0, call_started_at: null, claimed_at: null, finished_at: null, ...run };
}

/** One worker's statement, start to end. `other` null: nobody else holds a lock (A, running first). */
function execute(update: JsonObject, scene: Scene, snapshot: Row[], params: (string | number)[], other: Other | null): Run {
  const state: Run = { rows: [], locks: new Map(), writes: new Map(), waited: false };
  const byId = new Map(snapshot.map((row) => [row.run_id as number, row]));
  const newest = (id: number): Row => (other?.ended && other.ending === 'commit' ? (other.writes.get(id) ?? byId.get(id)!) : byId.get(id)!);
  const cteRows = new Map<string, Row[]>();
  const sublinkCache = new Map<JsonObject, Row[]>();

  const holdLock = (id: number, strength: Strength) => {
    const held = state.locks.get(id) ?? new Set<Strength>();
    held.add(strength);
    state.locks.set(id, held);
  };
  /** Wait for the other transaction when it holds a lock conflicting with `strength`; true when it did. */
  const conflicts = (id: number, strength: Strength) =>
    !!other && !other.ended && [...(other.locks.get(id) ?? [])].some((held) => CONFLICTS[strength].includes(held));
  const waitForOther = () => {
    state.waited = true;
    other!.ended = true;
  };
  /** Has the row a newer committed version than the snapshot's (so locking or updating it re-checks)? */
  const changedSince = (id: number) => newest(id) !== byId.get(id);

  const lockRow: Context['lockRow'] = (row, strength, wait, recheck) => {
    const id = row.run_id as number;
    if (conflicts(id, strength)) {
      if (wait === 'skip locked') return 'skip';
      if (wait === 'nowait') throw new StatementError('55P03');
      waitForOther();
    }
    let version = row;
    if (other?.ended && changedSince(id)) {
      version = newest(id);
      if (!recheck(version)) return 'skip';
    }
    holdLock(id, strength);
    return version;
  };
  const ctx: Context = { scene, params, snapshot, cteRows, sublinkCache, lockRow };

  for (const item of list(body({ WithClause: update.withClause ?? null } as Json, 'WithClause')?.ctes)) {
    const cte = body(item, 'CommonTableExpr')!;
    cteRows.set(text(cte.ctename)!, evalSelect(body(cte.ctequery, 'SelectStmt')!, ctx, []));
  }

  const relation = update.relation as JsonObject;
  const targetName = text((relation.alias as JsonObject | undefined)?.aliasname) ?? 'runs';
  const fromItems = list(update.fromClause).map((item) => {
    const range = body(item, 'RangeVar');
    const name = text(range?.relname);
    if (!range || !name || !cteRows.has(name)) throw new CannotPredict('an UPDATE … FROM anything but a CTE is not modelled');
    return { name: text((range.alias as JsonObject | undefined)?.aliasname) ?? name, rows: cteRows.get(name)! };
  });
  const combinations = fromItems.reduce<Binding[][]>((sets, item) => sets.flatMap((set) => item.rows.map((row) => [...set, { name: item.name, row }])), [[]]);

  const updated = new Set<number>();
  for (const target of snapshot) {
    for (const joined of combinations) {
      const id = target.run_id as number;
      if (updated.has(id)) continue;
      const where = (version: Row) => truthy(evaluate(update.whereClause as Json, ctx, [{ name: targetName, row: version }, ...joined]));
      if (!where(target)) continue;
      // A lock this statement's finder took does not exempt it: KEY SHARE lets A keep NO KEY UPDATE.
      if (conflicts(id, 'no key update')) waitForOther();
      let version = target;
      if (other?.ended && changedSince(id)) {
        version = newest(id);
        if (!where(version)) continue;
      }
      const next: Row = { ...version };
      for (const item of list(update.targetList)) {
        const set = body(item, 'ResTarget')!;
        next[text(set.name)!] = evaluate(set.val as Json, ctx, [{ name: targetName, row: version }, ...joined]);
      }
      updated.add(id);
      holdLock(id, 'no key update');
      state.writes.set(id, next);
      const returning = list((update.returningClause as JsonObject | undefined)?.exprs);
      const out: Row = {};
      for (const item of returning) {
        const target2 = body(item, 'ResTarget')!;
        out[outputName(target2)] = evaluate(target2.val as Json, ctx, [{ name: targetName, row: next }, ...joined]);
      }
      state.rows.push(out);
    }
  }
  return state;
}

interface Binding {
  name: string;
  row: Row;
}

interface Context {
  scene: Scene;
  params: (string | number)[];
  snapshot: Row[];
  cteRows: Map<string, Row[]>;
  sublinkCache: Map<JsonObject, Row[]>;
  /** Lock a row the finder found: the version it locked, or 'skip' (locked elsewhere, or failed the re-check). */
  lockRow(row: Row, strength: Strength, wait: string, recheck: (version: Row) => boolean): Row | 'skip';
}

const STRENGTHS: Record<string, Strength> = {
  LCS_FORUPDATE: 'update',
  LCS_FORNOKEYUPDATE: 'no key update',
  LCS_FORSHARE: 'share',
  LCS_FORKEYSHARE: 'key share',
};
const WAITS: Record<string, string> = { LockWaitBlock: 'wait', LockWaitError: 'nowait', LockWaitSkip: 'skip locked' };

function evalSelect(select: JsonObject, ctx: Context, outer: Binding[]): Row[] {
  const from = list(select.fromClause);
  if (from.length !== 1) throw new CannotPredict('a SELECT that does not read exactly one table is not modelled');
  const range = body(from[0], 'RangeVar');
  if (!range) throw new CannotPredict('a FROM item that is not a table is not modelled');
  const relname = text(range.relname)!;
  const name = text((range.alias as JsonObject | undefined)?.aliasname) ?? relname;
  const source = relname === 'runs' ? ctx.snapshot : ctx.cteRows.get(relname);
  if (!source) throw new CannotPredict(`unknown table ${relname}`);
  const scope = (row: Row) => [{ name, row }, ...outer];
  const where = (row: Row) => !select.whereClause || truthy(evaluate(select.whereClause as Json, ctx, scope(row)));
  let rows = source.filter(where);
  const sorts = list(select.sortClause).map((item) => body(item, 'SortBy')!);
  if (sorts.length > 0) {
    rows = [...rows].sort((x, y) => {
      for (const sort of sorts) {
        const order = compare(evaluate(sort.node as Json, ctx, scope(x)), evaluate(sort.node as Json, ctx, scope(y)));
        if (order !== 0) return text(sort.sortby_dir) === 'SORTBY_DESC' ? -order : order;
      }
      return 0;
    });
  }
  const limitNode = body(select.limitCount, 'A_Const');
  const limit = limitNode ? Number((limitNode.ival as JsonObject | undefined)?.ival ?? 0) : select.limitCount ? null : Number.POSITIVE_INFINITY;
  if (limit === null) throw new CannotPredict('a LIMIT that is not a constant is not modelled');
  if (Number.isFinite(limit) && sorts.length === 0 && rows.length > limit) {
    throw new CannotPredict('a LIMIT without ORDER BY takes rows in the order the scan meets them (physical order), which the statement does not tell');
  }
  const locking = list(select.lockingClause).map((item) => body(item, 'LockingClause')!);
  const aggregates = list(select.targetList).some((item) => isAggregate(body(item, 'ResTarget')!.val as Json));
  if (aggregates) {
    if (locking.length > 0) throw new CannotPredict('a locking clause with an aggregate');
    return [project(select, ctx, outer, name, rows, true)];
  }
  const taken: Row[] = [];
  for (const row of rows) {
    if (taken.length >= limit) break;
    const clause = locking[0];
    const version = clause ? ctx.lockRow(row, STRENGTHS[text(clause.strength)!]!, WAITS[text(clause.waitPolicy)!]!, where) : row;
    if (version !== 'skip') taken.push(version);
  }
  return taken.map((row) => project(select, ctx, outer, name, [row], false));
}

function project(select: JsonObject, ctx: Context, outer: Binding[], name: string, rows: Row[], aggregate: boolean): Row {
  const out: Row = {};
  for (const item of list(select.targetList)) {
    const target = body(item, 'ResTarget')!;
    const value = target.val as Json;
    out[outputName(target)] = aggregate ? aggregateOf(value, ctx, outer, name, rows) : evaluate(value, ctx, [{ name, row: rows[0]! }, ...outer]);
  }
  return out;
}

function isAggregate(value: Json): boolean {
  const call = body(value, 'FuncCall');
  return !!call && ['min', 'max', 'count'].includes((names(call.funcname).at(-1) ?? '').toLowerCase());
}

function aggregateOf(value: Json, ctx: Context, outer: Binding[], name: string, rows: Row[]): Value {
  const call = body(value, 'FuncCall');
  if (!call || !isAggregate(value)) throw new CannotPredict('a mix of aggregates and plain columns is not modelled');
  const fn = (names(call.funcname).at(-1) ?? '').toLowerCase();
  if (fn === 'count') return rows.length;
  const values = rows.map((row) => evaluate(list(call.args)[0]!, ctx, [{ name, row }, ...outer])).filter((v) => v !== null);
  if (values.length === 0) return null;
  return values.reduce((best, v) => (compare(v, best) * (fn === 'min' ? -1 : 1) > 0 ? v : best));
}

function outputName(target: JsonObject): string {
  const alias = text(target.name);
  if (alias) return alias;
  const column = body(target.val, 'ColumnRef');
  return column ? (names(column.fields).at(-1) ?? '?column?') : '?column?';
}

function truthy(value: Value): boolean {
  return value === true;
}

function compare(x: Value, y: Value): number {
  if (x === y) return 0;
  if (x === null) return 1;
  if (y === null) return -1;
  return x < y ? -1 : 1;
}

function evaluate(expr: Json, ctx: Context, scope: Binding[]): Value {
  const node = nodeOf(expr);
  if (!node) throw new CannotPredict('an empty expression');
  const b = node.body;
  switch (node.type) {
    case 'ColumnRef': {
      const parts = names(b.fields);
      const column = parts.at(-1)!;
      const binding = parts.length > 1 ? scope.find((s) => s.name === parts[0]) : scope.find((s) => column in s.row);
      if (!binding || !(column in binding.row)) throw new CannotPredict(`column ${parts.join('.')} is not in the scene`);
      return binding.row[column]!;
    }
    case 'A_Const': {
      if (b.isnull) return null;
      if (b.ival !== undefined) return Number((b.ival as JsonObject).ival ?? 0);
      if (b.sval !== undefined) return text((b.sval as JsonObject).sval) ?? '';
      if (b.boolval !== undefined) return (b.boolval as JsonObject).boolval === true;
      if (b.fval !== undefined) return Number(text((b.fval as JsonObject).fval));
      throw new CannotPredict('a constant of an unmodelled type');
    }
    case 'ParamRef':
      return ctx.params[(b.number as number) - 1] ?? null;
    case 'TypeCast':
      return evaluate(b.arg as Json, ctx, scope);
    case 'FuncCall': {
      const fn = (names(b.funcname).at(-1) ?? '').toLowerCase();
      if (fn === 'now') return ctx.scene.now;
      if (fn === 'make_interval') {
        const arg = body(list(b.args)[0], 'NamedArgExpr');
        if (!arg || text(arg.name) !== 'secs') throw new CannotPredict('make_interval other than secs =>');
        return Number(evaluate(arg.arg as Json, ctx, scope));
      }
      throw new CannotPredict(`${fn}() is not modelled`);
    }
    case 'BoolExpr': {
      const args = list(b.args).map((arg) => evaluate(arg, ctx, scope));
      const op = text(b.boolop);
      if (op === 'NOT_EXPR') return args[0] === null ? null : !args[0];
      if (op === 'AND_EXPR') return args.includes(false) ? false : args.includes(null) ? null : true;
      return args.includes(true) ? true : args.includes(null) ? null : false;
    }
    case 'NullTest': {
      const value = evaluate(b.arg as Json, ctx, scope);
      return text(b.nulltesttype) === 'IS_NULL' ? value === null : value !== null;
    }
    case 'A_Expr':
      return operator(b, ctx, scope);
    case 'SubLink':
      return sublink(expr as JsonObject, b, ctx, scope);
    default:
      throw new CannotPredict(`${node.type} is not modelled`);
  }
}

function operator(b: JsonObject, ctx: Context, scope: Binding[]): Value {
  const op = names(b.name)[0];
  const left = evaluate(b.lexpr as Json, ctx, scope);
  if (text(b.kind) === 'AEXPR_IN') {
    const values = list(body(b.rexpr, 'List')?.items ?? b.rexpr).map((item) => evaluate(item, ctx, scope));
    const found = values.some((v) => v !== null && v === left);
    return op === '<>' ? !found : found;
  }
  if (text(b.kind) !== 'AEXPR_OP') throw new CannotPredict(`the ${text(b.kind)} operator is not modelled`);
  const right = evaluate(b.rexpr as Json, ctx, scope);
  if (left === null || right === null) return null;
  switch (op) {
    case '=':
      return left === right;
    case '<>':
    case '!=':
      return left !== right;
    case '<':
      return left < right;
    case '>':
      return left > right;
    case '<=':
      return left <= right;
    case '>=':
      return left >= right;
    case '+':
      return Number(left) + Number(right);
    case '-':
      return Number(left) - Number(right);
    case '*':
      return Number(left) * Number(right);
    default:
      throw new CannotPredict(`the operator ${op} is not modelled`);
  }
}

/** A sub-select reads the statement's snapshot; a locking one runs once (an InitPlan) and keeps its result. */
function sublink(node: JsonObject, b: JsonObject, ctx: Context, scope: Binding[]): Value {
  const select = body(b.subselect, 'SelectStmt');
  if (!select) throw new CannotPredict('a sub-select that is not a SELECT');
  let rows = ctx.sublinkCache.get(node);
  if (!rows) {
    rows = evalSelect(select, ctx, scope);
    if (list(select.lockingClause).length > 0) ctx.sublinkCache.set(node, rows);
  }
  const first = (row: Row) => Object.values(row)[0] ?? null;
  switch (text(b.subLinkType)) {
    case 'EXPR_SUBLINK':
      return rows.length === 0 ? null : first(rows[0]!);
    case 'EXISTS_SUBLINK':
      return rows.length > 0;
    case 'ANY_SUBLINK': {
      const left = evaluate(b.testexpr as Json, ctx, scope);
      if (left === null) return null;
      return rows.some((row) => first(row) === left);
    }
    default:
      throw new CannotPredict(`a ${text(b.subLinkType)} sub-select is not modelled`);
  }
}
