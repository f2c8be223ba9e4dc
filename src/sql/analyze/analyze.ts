/**
 * A learner's or an engineer's own statement for a role (claim, heartbeat, work, complete), read with
 * PostgreSQL's own parser: either its shape — what it locks and writes, the NOWAIT probe that tells
 * whether it would wait, and what PostgreSQL does with it after a wait — or why the lab cannot run it
 * faithfully (a syntax error with PostgreSQL's message and position, or a refusal from ./refusals.ts).
 *
 * After a lock wait, a READ COMMITTED statement does not start again: it keeps the rows and values it
 * found before waiting and re-evaluates its own conditions on the newest version of the row it waited
 * for (EvalPlanQual). A locking finder (SELECT … FOR UPDATE in a CTE or sub-select) re-checks its WHERE
 * on that row and, when it no longer qualifies, skips it and takes the next row it had found, until its
 * LIMIT is met. The UPDATE re-checks its WHERE on the row it waited for, where a join to a CTE or a
 * sub-select's result still sees the rows found before waiting.
 */
import { deparseSync } from 'pgsql-deparser';
import { CONTRACTS, KEY_COLUMNS, type Parameter, type Role, RUNS_COLUMN_TYPES } from './contract';
import { loadParser, type Parser, type ParseTree } from './parser';
import { ALLOWED_FUNCTIONS, type Refusal, refusal } from './refusals';
import { body, type Json, type JsonObject, list, names, nodeOf, text, walk } from './tree';

type LockStrength = 'update' | 'no key update' | 'share' | 'key share';
type WaitPolicy = 'wait' | 'nowait' | 'skip locked';

interface LockingClause {
  strength: LockStrength;
  wait: WaitPolicy;
  /** Where the locking SELECT sits: a WITH query (named), a scalar sub-select, or the statement itself. */
  where: { kind: 'cte'; name: string } | { kind: 'sub-select' } | { kind: 'top level' };
  /** Its LIMIT when it is a constant, null without one. */
  limit: number | null;
  /** Its ORDER BY, as text (empty: none, the rows come in the order the scan meets them). */
  orderBy: string[];
  /** Its WHERE as text, re-checked on the newest version of a row it waited for. */
  condition: string | null;
}

export interface Shape {
  role: Role;
  /** A completion may delete its run instead (pgmq, Hangfire, delayed_job, gue): judged by how many rows it deleted. */
  kind: 'update' | 'delete';
  target: 'runs';
  /** The name the statement gives runs (its alias, or runs). */
  targetName: string;
  /** The role's parameters and which of them the statement uses. */
  parameters: { contract: readonly Parameter[]; used: number[] };
  returning: string[];
  locks: LockingClause[];
  /** The row lock the statement takes on each row it changes (FOR UPDATE only when it changes the key or deletes the row). */
  updateLock: LockStrength;
  /** How it finds its rows: through a WITH query, a sub-select in its WHERE, a derived table in its FROM, or its own WHERE on runs. */
  finder: 'cte' | 'sub-select' | 'derived-table' | 'where';
  /**
   * After a wait for a row, the UPDATE re-evaluates its whole WHERE on that row's newest version: the
   * conditions on the row alone see its new values; those joining a CTE's rows or a sub-select's result
   * compare them with what was found before waiting.
   */
  recheck: { onTheRow: string[]; againstRowsFoundBefore: string[] };
  /** The statement's NOWAIT twin: the same row tests, every wait turned into error 55P03. Run it and roll back. */
  probe: { text: string; parameterCount: number };
  afterWait: AfterWaitFinding;
  /**
   * The advisory functions it calls, each once, empty when none. Of these PGlite plays only
   * pg_try_advisory_xact_lock, held by the parked claim transaction; the session-level try-lock
   * (refusals.ts advisory-lock) and a lock that waits, a shared one or an unlock (advisory-server-only) are
   * played on a real server only, where each worker is a backend of its own.
   */
  advisoryLocks: AdvisoryCall[];
  /** A WITH RECURSIVE statement (que's claim walks the queue one row at a time that way): played on a real server only. */
  recursive: boolean;
}

/** The advisory locks a statement may take: they never wait, they answer true or false. */
const ADVISORY_TRY_LOCKS = ['pg_try_advisory_lock', 'pg_try_advisory_xact_lock'] as const;
/**
 * The other advisory functions, each with what makes PGlite unable to follow it between workers (refusals.ts
 * advisory-server-only): a real server, one connection per worker, plays them (check --db).
 */
const ADVISORY_SERVER_ONLY = {
  pg_advisory_lock: 'an advisory lock that waits',
  pg_advisory_xact_lock: 'an advisory lock that waits',
  pg_advisory_lock_shared: 'a shared advisory lock that waits',
  pg_advisory_xact_lock_shared: 'a shared advisory lock that waits',
  pg_try_advisory_lock_shared: 'a shared advisory lock',
  pg_try_advisory_xact_lock_shared: 'a shared advisory lock',
  pg_advisory_unlock: 'an advisory unlock',
  pg_advisory_unlock_shared: 'an advisory unlock',
  pg_advisory_unlock_all: 'an advisory unlock',
} as const;
type AdvisoryCall = (typeof ADVISORY_TRY_LOCKS)[number] | keyof typeof ADVISORY_SERVER_ONLY;
const ADVISORY_CALLS: readonly AdvisoryCall[] = [...ADVISORY_TRY_LOCKS, ...(Object.keys(ADVISORY_SERVER_ONLY) as (keyof typeof ADVISORY_SERVER_ONLY)[])];

interface AfterWaitFinding {
  /** One paragraph in the words of the lesson. */
  summary: string;
  /**
   * A finder that waits for a lock (FOR … without SKIP LOCKED / NOWAIT): the rows it had found, in the
   * order it looks at them (read under the same clock as the probe), and the statement that locks one of
   * them again and says whether it still qualifies. Both take the role's parameters $1…$(runParameter - 1);
   * $runParameter is the run's id in the relock.
   */
  lockingFinder: { candidates: string; relock: string; runParameter: number } | null;
  /**
   * For a statement whose CTEs and sub-selects take no lock: how to resume it once the lock holder is
   * gone, as PostgreSQL would. `found` runs before waiting (the role's parameters; one row): the JSON of
   * each CTE's rows and each sub-select's value, and `targets`, the runs its UPDATE matched then. `statement`
   * is the UPDATE with those values frozen in ($n+1… in `found`'s column order, as jsonb) and restricted to
   * `targets` (the last parameter, integer[]): run after the wait, it re-evaluates the WHERE on each row's
   * newest version against the values found before, as EvalPlanQual does. `probe` is that statement's
   * NOWAIT twin (the same parameters): 55P03 means the resumed statement would wait again. null: `why` says why not.
   */
  resume: { found: string; statement: string; frozenCount: number; probe: string } | { why: string };
}

export type AnalyzeError =
  | { kind: 'syntax'; message: string; cursor: number; line: number; column: number }
  | { kind: 'empty'; message: string }
  | { kind: 'invalid'; message: string }
  | { kind: 'refused'; refusal: Refusal; message: string };

export type Analysis = { ok: true; shape: Shape } | { ok: false; error: AnalyzeError };

/** Loads the parser on first use (a lazy chunk in the browser), then analyzes. */
export async function analyzeStatementNow(statement: string, role: Role, options: AnalyzeOptions = {}): Promise<Analysis> {
  return analyzeWith(await loadParser(), statement, role, options);
}

/** The $n a statement uses, ascending, or null when it does not parse (its analysis says why). */
export async function parametersUsedNow(statement: string): Promise<number[] | null> {
  const parsed = (await loadParser()).parse(statement);
  return parsed.ok ? parametersIn(parsed.tree as unknown as Json) : null;
}

const PG_VERSION = 180004;

/** Far above any claim (the lab's are under 700 characters), far below what makes the analysis slow. */
const MAX_STATEMENT_LENGTH = 16_000;

export interface AnalyzeOptions {
  /**
   * false: also give the shape of statements PostgreSQL runs fine but the lab's engine cannot replay
   * (refusals.ts ENGINE_ONLY), as the predictor needs, and as a check on a real server (`--db`) plays them.
   * Default true.
   */
  engineRefusals?: boolean;
  /**
   * The values the statement is given, in $n order, when they are not its role's (CONTRACTS): a claim
   * whose own parameters someone bound (`check --param`). Derived statements take them in the same order.
   */
  parameters?: readonly Parameter[];
}

export function analyzeWith(parser: Parser, statement: string, role: Role, options: AnalyzeOptions = {}): Analysis {
  if (statement.trim() === '') return { ok: false, error: { kind: 'empty', message: 'the statement is empty' } };
  if (statement.length > MAX_STATEMENT_LENGTH) {
    return {
      ok: false,
      error: { kind: 'invalid', message: `the statement is ${statement.length} characters long; the lab takes at most ${MAX_STATEMENT_LENGTH}` },
    };
  }
  // The parser reads a C string, which would end at a NUL; PostgreSQL rejects the character outright.
  if (statement.includes('\u0000')) {
    return { ok: false, error: { kind: 'invalid', message: 'invalid byte sequence for encoding "UTF8": 0x00 (the statement contains a NUL character)' } };
  }
  const parsed = parser.parse(statement);
  if (!parsed.ok) return { ok: false, error: syntaxError(statement, parsed.error.message, parsed.error.cursor) };
  const statements = parsed.tree.stmts ?? [];
  if (statements.length === 0) return { ok: false, error: { kind: 'empty', message: 'the statement is only comments' } };
  try {
    if (statements.length > 1) throw refused(refusal('several-statements', `${statements.length} statements`));
    const shape = shapeOf(statements[0]!.stmt as JsonObject, role, options.parameters ?? CONTRACTS[role].parameters);
    if (options.engineRefusals !== false) {
      // A transaction-level try-lock is held by the claim's parked (prepared) transaction, as a server's is; a session one is the one backend's.
      const serverOnly = shape.advisoryLocks.find((name): name is keyof typeof ADVISORY_SERVER_ONLY => name in ADVISORY_SERVER_ONLY);
      if (serverOnly) throw refused(refusal('advisory-server-only', `${serverOnly}(): ${ADVISORY_SERVER_ONLY[serverOnly]}`));
      if (shape.advisoryLocks.includes('pg_try_advisory_lock')) throw refused(refusal('advisory-lock'));
      if (shape.recursive) throw refused(refusal('recursive-cte'));
      if (shape.locks[0]?.strength === 'key share') throw refused(refusal('key-share-finder'));
      const { resume } = shape.afterWait;
      // A DELETE is only a completion, replayed by running it again (strategies/custom.ts customWrite), never resumed.
      // A reaper is played as the lab's own sweeps are: a wait of it runs on a server only (strategies/custom.ts customReaper).
      // A statement that takes a transaction-level try-lock is refused where it would wait, as it plays (strategies/custom.ts advisoryWait).
      if (shape.kind === 'update' && role !== 'reaper' && shape.locks.length === 0 && 'why' in resume && shape.advisoryLocks.length === 0)
        throw refused(refusal('cannot-resume', resume.why));
    }
    return { ok: true, shape };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: { kind: 'refused', refusal: error.refusal, message: error.refusal.reason } };
    throw error;
  }
}

/**
 * The first statement of a two-statement claim, `SELECT … \gset` (./gset.ts reads the file): psql keeps its
 * one row's columns as variables, and the claim's UPDATE takes the run's id from it as a parameter. The lab
 * plays it as a step of its own in the claim's transaction, so what it locks stays locked until the claim
 * commits, and a worker may move between it and the UPDATE.
 */
export interface GsetSelectShape {
  /** Each output column: psql's variable takes its name; `runId` when it is the row's own run_id. */
  columns: { name: string; runId: boolean }[];
  lock: LockingClause | null;
  /** The NOWAIT twin of a SELECT that may wait (a locking clause without SKIP LOCKED / NOWAIT), else null. */
  probe: string | null;
  lockingFinder: AfterWaitFinding['lockingFinder'];
  /** The parameters it uses (the claim's own: $1 worker, $2 lease seconds). */
  used: number[];
}

export type GsetSelectAnalysis = { ok: true; shape: GsetSelectShape } | { ok: false; error: AnalyzeError };

/** The shape of a claim's `SELECT … \gset` (its text without the \gset), or why the lab refuses it. */
export function analyzeGsetSelect(parser: Parser, statement: string, parameters: readonly Parameter[], engineRefusals = true): GsetSelectAnalysis {
  const parsed = parser.parse(statement);
  if (!parsed.ok) return { ok: false, error: syntaxError(statement, parsed.error.message, parsed.error.cursor) };
  const statements = parsed.tree.stmts ?? [];
  if (statements.length === 0) return { ok: false, error: { kind: 'empty', message: 'there is no SELECT before the \\gset' } };
  try {
    if (statements.length > 1) throw refused(refusal('several-statements', `${statements.length} statements before the \\gset`));
    const root = statements[0]!.stmt as JsonObject;
    const top = nodeOf(root);
    if (top?.type !== 'SelectStmt') throw refused(refusal('gset-not-a-select', `it is ${top ? describeKind(top.type) : 'not a statement'}`));
    const select = top.body;
    if (text(select.op) !== 'SETOP_NONE') throw refused(refusal('gset-not-a-select', 'a UNION / INTERSECT / EXCEPT'));
    const advisory = checkEveryNode(root, new Set(withQueryNames(select)));
    if (advisory.length > 0) throw refused(refusal('gset-lock', `${advisory[0]}() in the SELECT`));
    const used = parametersOf(root, 'claim', parameters);
    const locks = lockingClauses(root, 'runs');
    if (locks.length > 1) throw refused(refusal('several-locking-clauses'));
    const lock = locks[0] ?? null;
    if (lock && lock.where.kind !== 'top level')
      throw refused(refusal('gset-lock', `a locking clause in a ${lock.where.kind === 'cte' ? 'WITH query' : 'sub-select'} of the SELECT`));
    if (lock && (lock.strength === 'share' || lock.strength === 'key share')) throw refused(refusal('gset-lock', `FOR ${lock.strength.toUpperCase()}`));
    if (engineRefusals && lock?.wait === 'wait' && lock.limit !== 1) {
      throw refused(
        refusal('gset-lock', `a waiting FOR ${lock.strength.toUpperCase()} ${lock.limit === null ? 'without LIMIT' : `under LIMIT ${lock.limit}`}`),
      );
    }
    const range = body(list(select.fromClause)[0], 'RangeVar');
    const tableName = text(body({ Alias: range?.alias ?? null } as Json, 'Alias')?.aliasname) ?? 'runs';
    const columns = list(select.targetList).map((item) => {
      const target = body(item, 'ResTarget')!;
      const ref = body(target.val, 'ColumnRef');
      if (ref && names(ref.fields).at(-1) === '*') throw refused(refusal('gset-variable', 'SELECT *: name the column \\gset keeps, e.g. SELECT run_id'));
      return { name: outputName(target), runId: isOwnColumn(target.val as Json, tableName, 'run_id') };
    });
    let probe: string | null = null;
    let lockingFinder: AfterWaitFinding['lockingFinder'] = null;
    if (lock?.wait === 'wait') {
      const twin = structuredClone(root);
      walk(twin, (node) => {
        if (node.type === 'LockingClause' && node.body.waitPolicy === 'LockWaitBlock') node.body.waitPolicy = 'LockWaitError';
        return true;
      });
      probe = deparseStatement(twin);
      lockingFinder = relockOf(root, parameters);
      if (engineRefusals && lockingFinder && lockingFinder.runParameter !== 1) {
        throw refused(refusal('gset-lock', "a waiting finder whose rows depend on the worker's parameters"));
      }
    }
    return { ok: true, shape: { columns, lock, probe, lockingFinder, used } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, error: { kind: 'refused', refusal: error.refusal, message: error.refusal.reason } };
    throw error;
  }
}

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

function refused(why: Refusal): Refused {
  return new Refused(why);
}

/** PostgreSQL counts its cursor in characters; JavaScript strings in UTF-16 units. */
export function syntaxError(statement: string, message: string, cursor: number): AnalyzeError {
  const characters = Array.from(statement);
  const before = characters.slice(0, Math.min(cursor, characters.length));
  const lastBreak = before.lastIndexOf('\n');
  const line = before.filter((c) => c === '\n').length + 1;
  const column = before.length - lastBreak;
  return { kind: 'syntax', message, cursor: before.join('').length, line, column };
}

const TRANSACTION_KINDS = new Set(['TransactionStmt']);
const SETTING_KINDS = new Set(['VariableSetStmt', 'VariableShowStmt', 'DiscardStmt']);

// Functions (./refusals.ts ALLOWED_FUNCTIONS): none writes, waits, locks or reads the wall clock. now() is
// the lab's virtual clock (sim.now() comes first on the search path); CURRENT_TIMESTAMP and clock_timestamp() are not.

function shapeOf(statement: JsonObject, role: Role, parameters: readonly Parameter[]): Shape {
  const top = nodeOf(statement);
  if (!top) throw refused(refusal('not-an-update'));
  if (TRANSACTION_KINDS.has(top.type)) {
    const isolation = list(top.body.options).some((option) => {
      const element = body(option, 'DefElem');
      const constant = body(element?.arg, 'A_Const')?.sval as JsonObject | undefined;
      const level = text(constant?.sval);
      return text(element?.defname) === 'transaction_isolation' && level !== 'read committed' && level !== 'read uncommitted';
    });
    throw refused(refusal(isolation ? 'isolation' : 'transaction-control'));
  }
  if (top.type === 'VariableSetStmt') {
    const name = (text(top.body.name) ?? '').toLowerCase();
    const levels = [...list(top.body.args).map((arg) => body(arg, 'DefElem')?.arg), ...list(top.body.args)]
      .map((arg) => text((body(arg ?? null, 'A_Const')?.sval as JsonObject | undefined)?.sval))
      .filter((level): level is string => level !== null);
    const strict = levels.some((level) => /repeatable read|serializable/i.test(level));
    if (name === 'transaction' || name === 'session characteristics' || name.endsWith('transaction_isolation')) {
      throw refused(refusal(strict ? 'isolation' : 'transaction-control'));
    }
  }
  if (SETTING_KINDS.has(top.type)) throw refused(refusal('settings'));
  if (top.type === 'LockStmt') throw refused(refusal('table-lock'));
  if (top.type === 'DeleteStmt' && role === 'complete') return deleteShapeOf(statement, top.body, role, parameters);
  if (top.type !== 'UpdateStmt') {
    const deleting = role === 'reaper' ? ', and a reaper puts expired runs back to pending with an UPDATE' : ', and only a completion may delete its run';
    throw refused(refusal('not-an-update', `it is ${describeKind(top.type)}${top.type === 'DeleteStmt' ? deleting : ''}`));
  }
  const update = top.body;

  const { targetName, cteNames } = targetAndWith(update, 'updates');
  const advisoryLocks = checkEveryNode(statement, cteNames);

  for (const item of list(update.targetList)) {
    const column = text(body(item, 'ResTarget')?.name);
    if (column && KEY_COLUMNS.includes(column)) throw refused(refusal('changes-key'));
  }
  if (!update.whereClause) throw refused(refusal('no-where'));

  const contract = CONTRACTS[role];
  const used = parametersOf(statement, role, parameters);

  const returning = returningNames(update);
  if (role !== 'reaper' && returning.join(',') !== contract.returning.join(',')) {
    throw refused(refusal('returning-mismatch', `expected RETURNING ${contract.returning.join(', ')}; got ${returning.join(', ') || 'none'}`));
  }
  for (const column of JUDGED_COLUMNS) {
    const returned = returnedExpression(update, column);
    if (returned && !isOwnColumn(returned, targetName, column)) throw refused(refusal('returning-not-the-row', `${column} is not ${targetName}.${column}`));
  }

  const locks = lockingClauses(statement, targetName);
  if (locks.length > 1) throw refused(refusal('several-locking-clauses'));

  const finder = finderOf(update, cteNames);
  const recheck = splitRecheck(update.whereClause, targetName, cteNames);
  const updateLock: LockStrength = 'no key update';
  const probe = probeOf(update, targetName, updateLock, parameters);
  const lockingFinder = locks[0] && locks[0].wait === 'wait' ? relockOf(statement, parameters) : null;
  return {
    role,
    kind: 'update',
    target: 'runs',
    targetName,
    parameters: { contract: parameters, used },
    returning,
    locks,
    updateLock,
    finder,
    recheck,
    probe,
    afterWait: { summary: afterWaitSummary(locks[0], recheck), lockingFinder, resume: resumeOf(update, targetName, cteNames, parameters, locks.length > 0) },
    advisoryLocks,
    recursive: isRecursive(update),
  };
}

/** Whether the statement's own WITH is WITH RECURSIVE. */
function isRecursive(statement: JsonObject): boolean {
  return body({ WithClause: statement.withClause ?? null } as Json, 'WithClause')?.recursive === true;
}

/** The statement's target (runs, under its alias) and the names of its WITH queries, each of which must only read. */
function targetAndWith(statement: JsonObject, verb: 'updates' | 'deletes from'): { targetName: string; cteNames: Set<string> } {
  const relation = body({ RangeVar: statement.relation ?? null } as Json, 'RangeVar')!;
  const schema = text(relation.schemaname);
  if (text(relation.relname) !== 'runs' || (schema !== null && schema !== 'public')) {
    throw refused(refusal('wrong-target', `it ${verb} ${[schema, text(relation.relname)].filter(Boolean).join('.')}`));
  }
  const targetName = text(body({ Alias: relation.alias ?? null } as Json, 'Alias')?.aliasname) ?? 'runs';
  const withClause = body({ WithClause: statement.withClause ?? null } as Json, 'WithClause');
  const cteNames = new Set<string>();
  for (const item of list(withClause?.ctes)) {
    const cte = body(item, 'CommonTableExpr')!;
    const query = nodeOf(cte.ctequery);
    if (query?.type !== 'SelectStmt') throw refused(refusal('data-modifying-cte', `${text(cte.ctename)} is ${describeKind(query?.type ?? '')}`));
    cteNames.add(text(cte.ctename) ?? '');
  }
  return { targetName, cteNames };
}

/** The role's parameters the statement uses, $1 up to the highest without a gap, or the refusal. */
function parametersOf(statement: JsonObject, role: Role, parameters: readonly Parameter[]): number[] {
  const used = parametersIn(statement);
  const beyond = used.filter((n) => n > parameters.length);
  if (beyond.length > 0) {
    throw refused(
      refusal(
        'parameter-out-of-contract',
        `${role} gets ${parameters.map((p) => `$${p.number} ${p.name}`).join(', ') || 'no parameters'}; it uses $${beyond[0]}`,
      ),
    );
  }
  const highest = Math.max(0, ...used);
  const gap = Array.from({ length: highest }, (_, i) => i + 1).find((n) => !used.includes(n));
  if (gap !== undefined) throw refused(refusal('parameter-gap', `$${gap} ${parameters[gap - 1]!.name} is not used`));
  return used;
}

/**
 * A completion that deletes its run (pgmq, Hangfire.PostgreSql, delayed_job and gue finish a job so). There is
 * no row left to read back: the lab judges it by how many rows it deleted (1: the worker completed the run;
 * 0: its write missed), so it returns nothing, or run_id alone. A DELETE locks each row it removes FOR UPDATE.
 * Its USING list is a FROM list: a finder the lab cannot replay through a wait on PGlite (customWrite says so).
 */
function deleteShapeOf(statement: JsonObject, remove: JsonObject, role: Role, parameters: readonly Parameter[]): Shape {
  const { targetName, cteNames } = targetAndWith(remove, 'deletes from');
  const advisoryLocks = checkEveryNode(statement, cteNames);
  if (!remove.whereClause) throw refused(refusal('no-where'));
  const used = parametersOf(statement, role, parameters);
  const returning = returningNames(remove);
  const own = returning.length === 0 || (returning.length === 1 && isOwnColumn(returnedExpression(remove, 'run_id') ?? null, targetName, 'run_id'));
  if (!own) throw refused(refusal('delete-returning', `got RETURNING ${returning.join(', ')}`));
  const asFrom = { relation: remove.relation, withClause: remove.withClause, whereClause: remove.whereClause, fromClause: remove.usingClause } as JsonObject;
  const locks = lockingClauses(statement, targetName);
  if (locks.length > 1) throw refused(refusal('several-locking-clauses'));
  const recheck = splitRecheck(remove.whereClause, targetName, cteNames);
  const updateLock: LockStrength = 'update';
  return {
    role,
    kind: 'delete',
    target: 'runs',
    targetName,
    parameters: { contract: parameters, used },
    returning,
    locks,
    updateLock,
    finder: finderOf(asFrom, cteNames),
    recheck,
    probe: probeOf(asFrom, targetName, updateLock, parameters),
    afterWait: {
      summary: afterWaitSummary(locks[0], recheck).replace('When its UPDATE waits', 'When its DELETE waits'),
      lockingFinder: null,
      resume: { why: 'a DELETE: after a wait the lab runs it again, which is what PostgreSQL does only when its WHERE names the run by run_id = $1' },
    },
    advisoryLocks,
    recursive: isRecursive(remove),
  };
}

function describeKind(type: string): string {
  const words: Record<string, string> = {
    SelectStmt: 'a SELECT',
    InsertStmt: 'an INSERT',
    DeleteStmt: 'a DELETE',
    UpdateStmt: 'an UPDATE',
    MergeStmt: 'a MERGE',
    CreateStmt: 'a CREATE TABLE',
  };
  return (
    words[type] ??
    `a ${type
      .replace(/Stmt$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toUpperCase()} statement`
  );
}

/** Tables, functions and constructs anywhere in the statement. */
/** Refuses what no database lets the lab follow; returns the advisory functions the statement calls. */
function checkEveryNode(statement: JsonObject, cteNames: ReadonlySet<string>): AdvisoryCall[] {
  const advisory = new Set<AdvisoryCall>();
  walk(statement, (node) => {
    switch (node.type) {
      case 'RangeVar': {
        const name = text(node.body.relname) ?? '';
        const schema = text(node.body.schemaname);
        const isRuns = name === 'runs' && (schema === null || schema === 'public');
        // A WITH query of the statement, or of a sub-select this reference sits in (a WITH nested in a sub-select).
        const inScope = cteNames.has(name) || node.ancestors.some((above) => withQueryNames(above.body).includes(name));
        if (!isRuns && !(schema === null && inScope)) throw refused(refusal('other-table', [schema, name].filter(Boolean).join('.')));
        break;
      }
      case 'RangeFunction':
      case 'RangeTableFunc':
        throw refused(refusal('set-returning'));
      case 'FuncCall': {
        const parts = names(node.body.funcname);
        const name = (parts.at(-1) ?? '').toLowerCase();
        const schema = parts.length > 1 ? parts[0] : null;
        const call = ADVISORY_CALLS.find((known) => known === name);
        if (call && (schema === null || schema === 'pg_catalog') && !node.body.over) {
          advisory.add(call);
          break;
        }
        if (name === 'set_config') throw refused(refusal('settings'));
        if ((schema !== null && schema !== 'pg_catalog') || !ALLOWED_FUNCTIONS.has(name)) throw refused(refusal('function', `${parts.join('.')}()`));
        if (node.body.over) throw refused(refusal('function', `${name}() OVER (…)`));
        break;
      }
      case 'A_Expr':
      case 'SubLink':
      case 'TypeCast': {
        // An operator's name or a type's may carry a schema: only PostgreSQL's own (pg_catalog) is taken.
        const typeName = (node.body.typeName ?? {}) as JsonObject;
        const parts = names(node.type === 'A_Expr' ? node.body.name : node.type === 'SubLink' ? node.body.operName : typeName.names);
        if (parts.length > 1 && parts[0] !== 'pg_catalog') throw refused(refusal('qualified-name', parts.join('.')));
        break;
      }
      case 'SQLValueFunction':
        throw refused(refusal('function', 'CURRENT_TIMESTAMP and its kin read the wall clock; write now()'));
      case 'CurrentOfExpr':
        throw refused(refusal('where-current-of'));
      case 'CommonTableExpr': {
        const query = nodeOf(node.body.ctequery);
        if (query?.type !== 'SelectStmt') throw refused(refusal('data-modifying-cte'));
        break;
      }
      case 'DeleteStmt':
        // The statement itself (a completion that deletes its run); a DELETE anywhere below it writes in a WITH query.
        if (node.ancestors.length > 0) throw refused(refusal('data-modifying-cte'));
        break;
      case 'InsertStmt':
      case 'MergeStmt':
        throw refused(refusal('data-modifying-cte'));
      case 'ReturningClause':
        break;
      default:
        break;
    }
    return true;
  });
  const update = body(statement, 'UpdateStmt') ?? body(statement, 'DeleteStmt');
  const returning = update?.returningClause as JsonObject | undefined;
  if (returning && list(returning.options).length > 0) throw refused(refusal('returning-old-new'));
  return ADVISORY_CALLS.filter((name) => advisory.has(name));
}

/** The names of the WITH queries a SELECT or UPDATE defines. */
function withQueryNames(statement: JsonObject): string[] {
  return list((statement.withClause as JsonObject | undefined)?.ctes).map((item) => text(body(item, 'CommonTableExpr')?.ctename) ?? '');
}

function parametersIn(root: Json): number[] {
  const found = new Set<number>();
  walk(root, (node) => {
    if (node.type === 'ParamRef' && typeof node.body.number === 'number') found.add(node.body.number);
    return true;
  });
  return [...found].sort((a, b) => a - b);
}

function returningNames(update: JsonObject): string[] {
  const returning = update.returningClause as JsonObject | undefined;
  return list(returning?.exprs).map((item) => {
    const target = body(item, 'ResTarget')!;
    const alias = text(target.name);
    if (alias) return alias;
    const column = body(target.val, 'ColumnRef');
    if (column) {
      const parts = names(column.fields);
      if (parts.length > 1 && (parts[0] === 'old' || parts[0] === 'new')) throw refused(refusal('returning-old-new'));
      return parts.at(-1) ?? '?column?';
    }
    return '?column?';
  });
}

/**
 * The columns the lab judges ownership by when a statement hands them back: which run a worker holds, under
 * which generation, until when. Taken on trust, a made-up value could hide a double claim (an expiry in the
 * past reads as a lease that had run out).
 */
const JUDGED_COLUMNS = ['run_id', 'lease_generation', 'lease_expires_at'] as const;

/** The expression RETURNING hands back under `name`, if it has one. */
function returnedExpression(update: JsonObject, name: string): Json | null {
  for (const item of list((update.returningClause as JsonObject | undefined)?.exprs)) {
    const target = body(item, 'ResTarget')!;
    const column = body(target.val, 'ColumnRef');
    const as = text(target.name) ?? (column ? names(column.fields).at(-1) : null);
    if (as === name) return target.val as Json;
  }
  return null;
}

/**
 * The updated row's own column: `name`, or `target.name`. Unqualified, it cannot be another FROM item's
 * column of that name (PostgreSQL calls such a reference ambiguous), so it is the row's.
 */
function isOwnColumn(expression: Json, targetName: string, name: string): boolean {
  const column = body(expression, 'ColumnRef');
  if (!column) return false;
  const parts = names(column.fields);
  return parts.length === 1 ? parts[0] === name : parts.length === 2 && parts[0] === targetName && parts[1] === name;
}

const STRENGTHS: Record<string, LockStrength> = {
  LCS_FORUPDATE: 'update',
  LCS_FORNOKEYUPDATE: 'no key update',
  LCS_FORSHARE: 'share',
  LCS_FORKEYSHARE: 'key share',
};
const WAITS: Record<string, WaitPolicy> = { LockWaitBlock: 'wait', LockWaitError: 'nowait', LockWaitSkip: 'skip locked' };

function lockingClauses(statement: JsonObject, targetName: string): LockingClause[] {
  const found: LockingClause[] = [];
  walk(statement, (node) => {
    if (node.type !== 'SelectStmt' || list(node.body.lockingClause).length === 0) return true;
    const select = node.body;
    const parent = node.ancestors.at(-1);
    let where: LockingClause['where'];
    if (parent?.type === 'CommonTableExpr') where = { kind: 'cte', name: text(parent.body.ctename) ?? '' };
    else if (parent?.type === 'SubLink') {
      if (text(parent.body.subLinkType) === 'ANY_SUBLINK') throw refused(refusal('locking-in-in-list'));
      if (text(parent.body.subLinkType) !== 'EXPR_SUBLINK') throw refused(refusal('locking-correlated', 'EXISTS or ALL sub-select'));
      where = { kind: 'sub-select' };
    } else if (parent?.type === 'RangeSubselect') throw refused(refusal('locking-join', 'a locking sub-select in FROM'));
    else if (parent?.type === 'SelectStmt') throw refused(refusal('locking-aggregate', 'a branch of UNION / INTERSECT / EXCEPT'));
    else where = { kind: 'top level' };
    if (refersTo(select, targetName) && where.kind === 'sub-select') throw refused(refusal('locking-correlated'));
    if (text(select.op) !== 'SETOP_NONE') throw refused(refusal('locking-aggregate', 'UNION / INTERSECT / EXCEPT'));
    const from = list(select.fromClause);
    const onlyRuns = from.length === 1 && text(body(from[0], 'RangeVar')?.relname) === 'runs';
    if (!onlyRuns) throw refused(refusal('locking-join'));
    if (list(select.groupClause).length > 0 || list(select.distinctClause).length > 0 || select.havingClause || hasAggregate(select.targetList)) {
      throw refused(refusal('locking-aggregate'));
    }
    if (select.whereClause && hasSubLink(select.whereClause)) throw refused(refusal('locking-with-sub-select'));
    for (const item of list(select.lockingClause)) {
      const clause = body(item, 'LockingClause')!;
      found.push({
        strength: STRENGTHS[text(clause.strength) ?? ''] ?? 'update',
        wait: WAITS[text(clause.waitPolicy) ?? ''] ?? 'wait',
        where,
        limit: constantLimit(select.limitCount),
        orderBy: list(select.sortClause).map((sort) => deparseNode(sort)),
        condition: select.whereClause ? deparseNode(select.whereClause) : null,
      });
    }
    return true;
  });
  return found;
}

/** A constant LIMIT's value (PostgreSQL's tree leaves out an integer constant's zero), null otherwise. */
function constantLimit(limit: Json | undefined): number | null {
  const constant = body(limit, 'A_Const');
  if (!constant || constant.isnull) return null;
  const integer = constant.ival as JsonObject | undefined;
  return integer ? Number(integer.ival ?? 0) : null;
}

/** Does a sub-select refer to the outer target by name (so it runs once per outer row)? */
function refersTo(select: JsonObject, targetName: string): boolean {
  const innerNames = new Set(
    list(select.fromClause).map((item) => {
      const range = body(item, 'RangeVar');
      return text(body({ Alias: range?.alias ?? null } as Json, 'Alias')?.aliasname) ?? text(range?.relname) ?? '';
    }),
  );
  if (innerNames.has(targetName)) return false;
  let outer = false;
  walk(select as Json, (node) => {
    if (node.type === 'ColumnRef') {
      const parts = names(node.body.fields);
      if (parts.length > 1 && parts[0] === targetName) outer = true;
    }
    return true;
  });
  return outer;
}

function hasSubLink(root: Json): boolean {
  let found = false;
  walk(root, (node) => {
    if (node.type === 'SubLink') found = true;
    return !found;
  });
  return found;
}

function hasAggregate(root: Json | undefined): boolean {
  let found = false;
  walk(root ?? null, (node) => {
    if (node.type === 'FuncCall' && ['count', 'min', 'max'].includes((names(node.body.funcname).at(-1) ?? '').toLowerCase())) found = true;
    return !found;
  });
  return found;
}

function finderOf(update: JsonObject, cteNames: ReadonlySet<string>): Shape['finder'] {
  let usesCte = false;
  walk({ where: update.whereClause ?? null, from: update.fromClause ?? null } as Json, (node) => {
    if (node.type === 'RangeVar' && cteNames.has(text(node.body.relname) ?? '')) usesCte = true;
    return true;
  });
  if (usesCte) return 'cte';
  let derived = false;
  walk((update.fromClause ?? null) as Json, (node) => {
    if (node.type === 'RangeSubselect') derived = true;
    return !derived;
  });
  if (derived) return 'derived-table';
  return hasSubLink(update.whereClause ?? null) ? 'sub-select' : 'where';
}

/** The WHERE's top-level AND terms, split by whether they read anything but the target row. */
function splitRecheck(where: Json | undefined, targetName: string, cteNames: ReadonlySet<string>): Shape['recheck'] {
  const terms: Json[] = [];
  const collect = (expr: Json | undefined) => {
    const bool = body(expr, 'BoolExpr');
    if (bool && text(bool.boolop) === 'AND_EXPR') for (const arg of list(bool.args)) collect(arg);
    else if (expr) terms.push(expr);
  };
  collect(where);
  const onTheRow: string[] = [];
  const againstRowsFoundBefore: string[] = [];
  for (const term of terms) {
    let other = false;
    walk(term, (node) => {
      if (node.type === 'SubLink') other = true;
      if (node.type === 'ColumnRef') {
        const parts = names(node.body.fields);
        if (parts.length > 1 && parts[0] !== targetName && (cteNames.has(parts[0]!) || parts[0] !== 'runs')) other = true;
      }
      return !other;
    });
    (other ? againstRowsFoundBefore : onTheRow).push(deparseNode(term));
  }
  return { onTheRow, againstRowsFoundBefore };
}

const STRENGTH_NODES: Record<LockStrength, string> = {
  update: 'LCS_FORUPDATE',
  'no key update': 'LCS_FORNOKEYUPDATE',
  share: 'LCS_FORSHARE',
  'key share': 'LCS_FORKEYSHARE',
};

/**
 * The NOWAIT twin: WITH (every waiting locking clause made NOWAIT) SELECT target.run_id FROM runs, its FROM list
 * WHERE its WHERE FOR NO KEY UPDATE OF target NOWAIT. It takes every row lock the statement would, in the
 * same order, so 55P03 means the statement would wait. Parameters below the highest it uses but missing
 * from it are referenced with their type, so PostgreSQL can type them all.
 */
function probeOf(update: JsonObject, targetName: string, lock: LockStrength, parameters: readonly Parameter[]): Shape['probe'] {
  const withClause = update.withClause ? structuredClone(update.withClause) : undefined;
  const whereClause = structuredClone(update.whereClause!);
  const fromClause = structuredClone(list(update.fromClause));
  for (const part of [withClause, whereClause, fromClause]) {
    walk((part ?? null) as Json, (node) => {
      if (node.type !== 'LockingClause') return true;
      // A NOWAIT the statement has itself never waits: it fails, and the statement can simply be run. In the
      // probe it skips instead, so that the probe's 55P03 always means "would wait" (when the statement's own
      // NOWAIT would not fail, its finder meets no locked row and the skip changes nothing).
      if (node.body.waitPolicy === 'LockWaitError') node.body.waitPolicy = 'LockWaitSkip';
      else if (node.body.waitPolicy === 'LockWaitBlock') node.body.waitPolicy = 'LockWaitError';
      return true;
    });
  }
  const column = (table: string, name: string): Json => ({ ColumnRef: { fields: [{ String: { sval: table } }, { String: { sval: name } }] } });
  const used = parametersIn({ w: withClause ?? null, f: fromClause, c: whereClause } as Json);
  const highest = Math.max(0, ...used);
  const typed = typedGaps(used, highest, parameters);
  const select: Json = {
    SelectStmt: {
      targetList: [{ ResTarget: { val: column(targetName, 'run_id') } }, ...typed],
      fromClause: [{ RangeVar: update.relation as Json }, ...fromClause],
      whereClause,
      ...(withClause ? { withClause } : {}),
      lockingClause: [
        {
          LockingClause: {
            lockedRels: [{ RangeVar: { relname: targetName, inh: true, relpersistence: 'p' } }],
            strength: STRENGTH_NODES[lock],
            waitPolicy: 'LockWaitError',
          },
        },
      ],
      limitOption: 'LIMIT_OPTION_DEFAULT',
      op: 'SETOP_NONE',
    },
  };
  return { text: deparseStatement(select), parameterCount: highest };
}

/** `$n::type AS unused_n` for each parameter below `highest` that `used` lacks, so PostgreSQL can type it. */
function typedGaps(used: readonly number[], highest: number, parameters: readonly Parameter[]): Json[] {
  const typed: Json[] = [];
  for (let n = 1; n <= highest; n++) {
    if (used.includes(n)) continue;
    const type = parameters[n - 1]!.type;
    typed.push({
      ResTarget: {
        name: `unused_${n}`,
        val: { TypeCast: { arg: { ParamRef: { number: n } }, typeName: { names: [{ String: { sval: type === 'text' ? 'text' : 'int4' } }], typemod: -1 } } },
      },
    });
  }
  return typed;
}

/**
 * For a finder that waits: the runs it looks at, in its order (its SELECT without LIMIT and lock), and the
 * statement that locks one of them with NOWAIT and says whether it still passes the finder's WHERE. The
 * run's id is the parameter after the last one the finder uses (the role's own come first, typed).
 */
function relockOf(statement: JsonObject, parameters: readonly Parameter[]): AfterWaitFinding['lockingFinder'] {
  let finder: JsonObject | null = null;
  walk(statement, (node) => {
    if (node.type === 'SelectStmt' && list(node.body.lockingClause).length > 0) finder = node.body;
    return finder === null;
  });
  if (!finder) return null;
  const select = finder as JsonObject;
  const range = body(list(select.fromClause)[0], 'RangeVar')!;
  const name = text(body({ Alias: range.alias ?? null } as Json, 'Alias')?.aliasname) ?? 'runs';
  const runId: Json = { ColumnRef: { fields: [{ String: { sval: name } }, { String: { sval: 'run_id' } }] } };
  const finderParameters = parametersIn((select.whereClause ?? null) as Json);
  const runParameter = Math.max(0, ...finderParameters) + 1;
  const candidates: Json = {
    SelectStmt: {
      targetList: [{ ResTarget: { val: runId } }, ...typedGaps(finderParameters, runParameter - 1, parameters)],
      fromClause: structuredClone(list(select.fromClause)),
      ...(select.whereClause ? { whereClause: structuredClone(select.whereClause) } : {}),
      ...(list(select.sortClause).length > 0 ? { sortClause: structuredClone(select.sortClause) } : {}),
      limitOption: 'LIMIT_OPTION_DEFAULT',
      op: 'SETOP_NONE',
    },
  };
  const clause = body(list(select.lockingClause)[0], 'LockingClause')!;
  const qualifies: Json = select.whereClause ? structuredClone(select.whereClause) : { A_Const: { boolval: { boolval: true } } };
  const relock: Json = {
    SelectStmt: {
      targetList: [
        { ResTarget: { val: runId } },
        { ResTarget: { name: 'qualifies', val: qualifies } },
        ...typedGaps(finderParameters, runParameter - 1, parameters),
      ],
      fromClause: structuredClone(list(select.fromClause)),
      whereClause: { A_Expr: { kind: 'AEXPR_OP', name: [{ String: { sval: '=' } }], lexpr: runId, rexpr: { ParamRef: { number: runParameter } } } },
      lockingClause: [{ LockingClause: { strength: clause.strength as Json, waitPolicy: 'LockWaitError' } }],
      limitOption: 'LIMIT_OPTION_DEFAULT',
      op: 'SETOP_NONE',
    },
  };
  return { candidates: deparseStatement(candidates), relock: deparseStatement(relock), runParameter };
}

const typeName = (name: string): Json => {
  const array = name.endsWith('[]');
  const base = name.replace(/\[\]$/, '');
  return { names: [{ String: { sval: base === 'integer' ? 'int4' : base } }], typemod: -1, ...(array ? { arrayBounds: [{ Integer: { ival: -1 } }] } : {}) };
};
const cast = (arg: Json, type: string): Json => ({ TypeCast: { arg, typeName: typeName(type) } });
const param = (n: number): Json => ({ ParamRef: { number: n } });
const call = (name: string, ...args: Json[]): Json => ({ FuncCall: { funcname: [{ String: { sval: name } }], args, funcformat: 'COERCE_EXPLICIT_CALL' } });
const column = (...fields: string[]): Json => ({ ColumnRef: { fields: fields.map((sval) => ({ String: { sval } })) } });
const selectOf = (fields: JsonObject): Json => ({ SelectStmt: { limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE', ...fields } });
// COALESCE is an expression of its own in PostgreSQL's tree, not a function call.
const coalesce = (...args: Json[]): Json => ({ CoalesceExpr: { args } });
const subLink = (type: string, subselect: Json): Json => ({ SubLink: { subLinkType: type, subselect } });

/** The SQL type of a sub-select's or CTE's output column, when it is a column of runs (or min/max of one). */
function outputType(value: Json): string | null {
  const ref = body(value, 'ColumnRef');
  if (ref) return RUNS_COLUMN_TYPES[names(ref.fields).at(-1) ?? ''] ?? null;
  const fn = body(value, 'FuncCall');
  const fnName = (names(fn?.funcname).at(-1) ?? '').toLowerCase();
  if (fn && (fnName === 'min' || fnName === 'max')) return outputType(list(fn.args)[0] ?? null);
  if (fn && fnName === 'count') return 'bigint';
  return null;
}

function resumeOf(
  update: JsonObject,
  targetName: string,
  cteNames: ReadonlySet<string>,
  parameters: readonly Parameter[],
  locks: boolean,
): AfterWaitFinding['resume'] {
  if (locks) return { why: 'a locking finder: see lockingFinder, or the finder skips or fails instead of waiting' };
  const highest = parameters.length;
  const frozen: Json[] = [];
  const resumed = structuredClone(update);
  let next = highest + 1;
  let why: string | null = null;
  // Each CTE: its rows as JSON before waiting; in the resumed statement, those rows again, typed.
  for (const item of list((resumed.withClause as JsonObject | undefined)?.ctes)) {
    const cte = body(item, 'CommonTableExpr')!;
    const name = text(cte.ctename)!;
    const targets = list(body(cte.ctequery, 'SelectStmt')?.targetList).map((t) => body(t, 'ResTarget')!);
    const columns = targets.map((t) => ({ name: outputName(t), type: outputType(t.val as Json) }));
    const untyped = columns.find((c) => c.type === null);
    if (untyped) why ??= `the CTE ${name} returns ${untyped.name}, which is not a column of runs`;
    frozen.push(
      coalesce(
        subLink(
          'EXPR_SUBLINK',
          selectOf({
            targetList: [{ ResTarget: { val: call('jsonb_agg', call('to_jsonb', column('frozen'))) } }],
            fromClause: [{ RangeVar: { relname: name, alias: { aliasname: 'frozen' }, inh: true, relpersistence: 'p' } }],
          }),
        ),
        cast({ A_Const: { sval: { sval: '[]' } } }, 'jsonb'),
      ),
    );
    cte.ctequery = frozenRows(next, columns);
    next++;
  }
  // Each derived table in FROM (`FROM (SELECT …) AS picked`): PostgreSQL's re-check after the wait joins the
  // row's newest version with the derived table's row as it was read before waiting (it copies that row, it
  // does not run the sub-select again), so its rows are frozen like a CTE's. In `found` each becomes a
  // materialized WITH query of its own, so the frozen rows and the runs matched come from one reading.
  const foundFrom = structuredClone(list(update.fromClause));
  const derived: { name: string; query: Json }[] = [];
  const freezeFrom = (resumedItem: Json, foundItem: Json): void => {
    const join = body(resumedItem, 'JoinExpr');
    if (join) {
      const foundJoin = body(foundItem, 'JoinExpr')!;
      freezeFrom(join.larg ?? null, foundJoin.larg ?? null);
      freezeFrom(join.rarg ?? null, foundJoin.rarg ?? null);
      if (join.quals && readsRuns(join.quals)) why ??= 'a sub-select over runs in a JOIN … ON';
      return;
    }
    const range = body(resumedItem, 'RangeVar');
    if (range) {
      // A plain table in FROM is re-read after the wait as the version joined before it (its row is fetched
      // again by its old address), which a new statement cannot do.
      if (!cteNames.has(text(range.relname) ?? '') || text(range.schemaname) !== null) why ??= 'runs joined a second time in FROM';
      return;
    }
    const subselect = body(resumedItem, 'RangeSubselect');
    if (!subselect) {
      why ??= 'a FROM item that is neither a sub-select, a CTE nor a join of them';
      return;
    }
    if (subselect.lateral) why ??= 'a LATERAL sub-select in FROM';
    const select = body(subselect.subquery, 'SelectStmt');
    const targets = list(select?.targetList).map((t) => body(t, 'ResTarget')!);
    const columns = targets.map((t) => ({ name: outputName(t), type: outputType(t.val as Json) }));
    const untyped = columns.find((c) => c.type === null);
    if (!select || untyped || columns.length === 0) why ??= `a sub-select in FROM returns ${untyped?.name ?? 'something'} that is not a column of runs`;
    const name = `lab_found_${derived.length + 1}`;
    derived.push({ name, query: structuredClone(subselect.subquery as Json) });
    // In `found`: the materialized WITH query, under the derived table's own alias.
    const foundNode = foundItem as JsonObject;
    const alias = body(foundNode, 'RangeSubselect')!.alias;
    delete foundNode.RangeSubselect;
    foundNode.RangeVar = { relname: name, inh: true, relpersistence: 'p', ...(alias ? { alias } : {}) };
    frozen.push(
      coalesce(
        subLink(
          'EXPR_SUBLINK',
          selectOf({
            targetList: [{ ResTarget: { val: call('jsonb_agg', call('to_jsonb', column('frozen'))) } }],
            fromClause: [{ RangeVar: { relname: name, alias: { aliasname: 'frozen' }, inh: true, relpersistence: 'p' } }],
          }),
        ),
        cast({ A_Const: { sval: { sval: '[]' } } }, 'jsonb'),
      ),
    );
    subselect.subquery = frozenRows(next, columns);
    next++;
  };
  for (const [i, item] of list(resumed.fromClause).entries()) freezeFrom(item, foundFrom[i] ?? null);
  for (const item of [...list(resumed.targetList), ...list((resumed.returningClause as JsonObject | undefined)?.exprs)]) {
    if (readsRuns(item)) why ??= 'a sub-select over runs in SET or RETURNING';
  }
  // Each scalar sub-select of the UPDATE's WHERE: its value before waiting, as jsonb, cast back.
  const freezeSubLinks = (value: Json): Json => {
    const link = body(value, 'SubLink');
    if (link && text(link.subLinkType) === 'EXPR_SUBLINK') {
      const select = body(link.subselect, 'SelectStmt')!;
      const only = body(list(select.targetList)[0], 'ResTarget');
      const type = only ? outputType(only.val as Json) : null;
      if (!type) why ??= 'a sub-select whose value is not a column of runs';
      frozen.push(call('to_jsonb', structuredClone(value)));
      const frozenValue = cast(
        {
          A_Expr: {
            kind: 'AEXPR_OP',
            name: [{ String: { sval: '#>>' } }],
            lexpr: cast(param(next++), 'jsonb'),
            rexpr: cast({ A_Const: { sval: { sval: '{}' } } }, 'text[]'),
          },
        },
        type ?? 'text',
      );
      return frozenValue;
    }
    if (link) {
      // An IN / EXISTS over the (frozen) CTEs reads what was found before waiting; one over runs would not.
      if (readsRuns(link.subselect as Json)) why ??= 'an IN / EXISTS sub-select over runs in the WHERE';
      return value;
    }
    if (Array.isArray(value)) return value.map(freezeSubLinks);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, freezeSubLinks(v)]));
    return value;
  };
  const originalWhere = structuredClone(update.whereClause!);
  resumed.whereClause = {
    BoolExpr: {
      boolop: 'AND_EXPR',
      args: [
        freezeSubLinks(resumed.whereClause!),
        { A_Expr: { kind: 'AEXPR_OP_ANY', name: [{ String: { sval: '=' } }], lexpr: column(targetName, 'run_id'), rexpr: cast(param(next), 'integer[]') } },
      ],
    },
  };
  if (why) return { why };
  const foundTargets: Json = {
    SubLink: {
      subLinkType: 'ARRAY_SUBLINK',
      subselect: selectOf({
        targetList: [{ ResTarget: { val: column(targetName, 'run_id') } }],
        fromClause: [{ RangeVar: update.relation as Json }, ...foundFrom],
        whereClause: originalWhere,
      }),
    },
  };
  const foundCtes = [
    ...list((update.withClause as JsonObject | undefined)?.ctes).map((cte) => structuredClone(cte)),
    ...derived.map(({ name, query }) => ({ CommonTableExpr: { ctename: name, ctematerialized: 'CTEMaterializeAlways', ctequery: query } })),
  ];
  const found = selectOf({
    targetList: [...frozen.map((val, i) => ({ ResTarget: { name: `frozen_${i + 1}`, val } })), { ResTarget: { name: 'targets', val: foundTargets } }],
    ...(foundCtes.length > 0 ? { withClause: { ...((update.withClause as JsonObject | undefined) ?? {}), ctes: foundCtes } } : {}),
  });
  const foundText = deparseStatement(found);
  const used = parametersIn(found);
  const gaps = typedGaps(used, highest, parameters);
  const foundWithTypes =
    gaps.length > 0
      ? deparseStatement({
          SelectStmt: { ...(body(found, 'SelectStmt') as JsonObject), targetList: [...list(body(found, 'SelectStmt')!.targetList), ...gaps] },
        })
      : foundText;
  // Resumed, the statement may meet a row a third worker locked meanwhile: its own probe says so.
  const resumedProbe = probeOf(resumed, targetName, 'no key update', parameters);
  return { found: foundWithTypes, statement: deparseStatement({ UpdateStmt: resumed }), frozenCount: frozen.length, probe: resumedProbe.text };
}

/** `SELECT * FROM jsonb_to_recordset($n::jsonb) AS frozen(columns)`: rows found before a wait, read back typed. */
function frozenRows(parameter: number, columns: readonly { name: string; type: string | null }[]): Json {
  return selectOf({
    targetList: [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }],
    fromClause: [
      {
        RangeFunction: {
          functions: [{ List: { items: [call('jsonb_to_recordset', cast(param(parameter), 'jsonb')), null] } }],
          alias: { aliasname: 'frozen' },
          coldeflist: columns.map((c) => ({ ColumnDef: { colname: c.name, typeName: typeName(c.type ?? 'text'), is_local: true } })),
        },
      },
    ],
  });
}

/** Does anything under `root` read the table runs? */
function readsRuns(root: Json): boolean {
  let found = false;
  walk(root, (node) => {
    if (node.type === 'RangeVar' && text(node.body.relname) === 'runs') found = true;
    return !found;
  });
  return found;
}

function outputName(target: JsonObject): string {
  const alias = text(target.name);
  if (alias) return alias;
  const ref = body(target.val, 'ColumnRef');
  return ref ? (names(ref.fields).at(-1) ?? '?column?') : '?column?';
}

function afterWaitSummary(lock: LockingClause | undefined, recheck: Shape['recheck']): string {
  const own = recheck.onTheRow.length > 0 ? `its own conditions on the row (${recheck.onTheRow.join(' AND ')})` : 'no condition on the row itself';
  const join =
    recheck.againstRowsFoundBefore.length > 0
      ? `; the conditions that join other rows (${recheck.againstRowsFoundBefore.join(' AND ')}) compare the row with what it found before waiting, not with a fresh look`
      : '';
  const update = `When its UPDATE waits for a row, it re-evaluates ${own} on that row's newest version${join}.`;
  if (!lock) return update;
  if (lock.wait === 'skip locked') return `Its finder skips rows another transaction has locked, so the finder never waits. ${update}`;
  if (lock.wait === 'nowait') return `Its finder fails with 55P03 (lock not available) instead of waiting. ${update}`;
  return `When its finder waits for a row, it keeps the rows it had found, in order; it re-checks ${lock.condition ?? 'nothing'} on the newest version of each as it locks it, skips those that no longer qualify and stops at ${lock.limit ?? 'all'} row(s). It does not see rows that became eligible while it waited. ${update}`;
}

function deparseNode(node: Json): string {
  return (deparseSync as unknown as (n: Json) => string)(node).replace(/\s+/g, ' ').trim();
}

function deparseStatement(statement: Json): string {
  const tree: ParseTree = { version: PG_VERSION, stmts: [{ stmt: statement as Record<string, unknown> }] };
  return (deparseSync as unknown as (t: ParseTree) => string)(tree);
}
