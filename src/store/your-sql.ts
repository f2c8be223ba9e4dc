/**
 * "Your SQL": a claim (and, if the learner wants, a heartbeat, work write and completion) typed in the
 * browser, read by PostgreSQL's own parser (loaded lazily, on the first statement analyzed) and built into
 * a strategy the engine plays (strategies/custom.ts). What the lab cannot replay exactly on PGlite is refused
 * with the analyzer's one-line reason; a syntax error keeps PostgreSQL's message and position.
 */
import {
  type Analysis,
  analyzeGsetClaimFile,
  analyzeStatement,
  ENGINE_ONLY_REFUSALS,
  GSET_UPDATE_VALUES,
  loadAnalyzer,
  NAMES_ITS_CHECK,
  parametersUsed,
} from '../sql/analyze';
import { type BoundParameters, bindingFlag, bindStatement, labValues, type ParamBindings, parseBindings, ROW_SYNTAX, writtenIn } from '../sim/param-bindings';
import type { StrategyDefinition } from '../strategies';
import {
  CUSTOM_CLAIM_IDS,
  CUSTOM_WRITE_IDS,
  type CustomClaim,
  customClaimStrategy,
  customWrite,
  ownReaperOf,
  textAsRun,
  twoStatementClaim,
  withCustomReaper,
  type WriteRole,
  type YourStatementRole,
  ROLE_NAMES,
} from '../strategies/custom';
import type { ParamSource } from '../strategies/types';

export const WRITE_ROLES: readonly WriteRole[] = ['heartbeat', 'work', 'complete'];

export type YourSqlRole = YourStatementRole;

const YOUR_SQL_ROLES: readonly YourSqlRole[] = ['claim', ...WRITE_ROLES, 'reaper'];

/** The statements as typed: the claim always; a write is null while the lab's own file is used. */
export interface YourSqlTexts {
  claim: string;
  heartbeat: string | null;
  work: string | null;
  complete: string | null;
  /**
   * The rescuer's one statement (check --reaper), played at each `rescue` step of a scenario with a rescuer's
   * lane; absent or null: the strategy's own rescuer, if it has one.
   */
  reaper?: string | null;
  /**
   * The statements' own parameters, bound (sim/param-bindings.ts, as `check --param` writes them:
   * `1=1`, `2=worker`, `complete:3='done'`); absent or empty: each statement takes its role's contract.
   */
  params?: readonly string[];
}

/** Why a statement was not accepted, for the editor of its role. */
export type YourSqlProblem =
  /** PostgreSQL's own message; line and column count characters from 1, `lineText` is that line. */
  | { role: YourSqlRole; kind: 'syntax'; message: string; line: number; column: number; lineText: string }
  /**
   * A shape the lab cannot play: the reason, in one line. `onServer`: whether a check on a real server
   * (`check --db`) plays it, the refusal being PGlite's alone, or refuses it too (the lab's model); absent
   * where the reason says so itself (a step the engine stopped, db/custom-claim-guard.ts).
   */
  | { role: YourSqlRole; kind: 'refused'; reason: string; onServer?: 'plays' | 'refuses' }
  /** Empty, too long, a NUL character, too long for a link. */
  | { role: YourSqlRole | null; kind: 'invalid'; message: string };

export type YourSqlBuilt = { ok: true; definition: StrategyDefinition } | { ok: false; problem: YourSqlProblem };

const DEFINITION_KEYS = { heartbeat: 'heartbeat', work: 'work', complete: 'complete' } as const satisfies Record<WriteRole, keyof StrategyDefinition>;

export const YOUR_SQL_LABEL = 'Your SQL';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Analyzes one statement; what the analysis could not read is that statement's problem. A JavaScript
 * stack overflow (RangeError) is a statement nested deeper than the lab's code can walk: reading its parse
 * tree takes a frame per level (about a thousand nested NOT( are enough).
 */
async function analyzeRole(text: string, role: YourSqlRole, bound: BoundParameters | null): Promise<Analysis | { ok: false; problem: YourSqlProblem }> {
  try {
    return await analyzeStatement(text, role, bound ? { parameters: bound.parameters } : {});
  } catch (error) {
    return { ok: false, problem: unreadable(role, error) };
  }
}

/** A statement whose parse tree the lab's code could not walk: that statement's problem, in one line. */
function unreadable(role: YourSqlRole, error: unknown): YourSqlProblem {
  const message =
    error instanceof RangeError
      ? `it is nested too deeply for the lab to read (${messageOf(error)}); write it with fewer nested parentheses or NOTs`
      : `the lab could not read it: ${messageOf(error)}`;
  return { role, kind: 'invalid', message };
}

/** Analyzes every statement (the claim first) and builds the strategy, or the first problem found. Never throws. */
export async function buildYourSql(texts: YourSqlTexts): Promise<YourSqlBuilt> {
  try {
    await loadAnalyzer();
  } catch (error) {
    return {
      ok: false,
      problem: { role: null, kind: 'invalid', message: `the SQL parser could not be loaded (${messageOf(error)}); check the connection and try again` },
    };
  }
  const parsed = parseBindings(texts.params ?? [], ROW_SYNTAX);
  if (!parsed.ok) return { ok: false, problem: { role: parsed.role ?? null, kind: 'invalid', message: parsed.message } };
  const bindings = parsed.value;
  const loose = bindings.find((binding) => binding.role !== 'claim' && (texts[binding.role] ?? null) === null);
  if (loose)
    return {
      ok: false,
      problem: { role: null, kind: 'invalid', message: `${writtenIn(ROW_SYNTAX, loose)}: there is no ${ROLE_NAMES[loose.role]} of your own to bind` },
    };
  const claim = await buildClaim(texts.claim, bindings);
  if ('problem' in claim) return claim;
  // What the builder refuses is how a wait resumes on PGlite: a real server's wait is real, and --db plays it.
  if (!claim.ok) return { ok: false, problem: { role: 'claim', kind: 'refused', reason: claim.reason, onServer: 'plays' } };
  let definition: StrategyDefinition = { ...claim.definition, label: YOUR_SQL_LABEL };
  for (const role of WRITE_ROLES) {
    const text = texts[role];
    if (text === null) continue;
    const writeBound = await boundFor(text, role, bindings);
    if (!writeBound.ok) return writeBound;
    const analysis = await analyzeRole(text, role, writeBound.bound);
    if (!analysis.ok) return { ok: false, problem: 'problem' in analysis ? analysis.problem : problemOf(role, text, analysis.error) };
    const write = customWrite(role, text, analysis.shape, null, {}, writeBound.bound?.sources ?? null);
    if (!write.ok) return { ok: false, problem: { role, kind: 'refused', reason: write.reason, onServer: 'plays' } };
    // The same statement with fencing on and off: a statement typed here says for itself whether it checks the generation.
    definition = { ...definition, [DEFINITION_KEYS[role]]: { fenced: write.statement, unfenced: write.statement } };
  }
  const reaper = texts.reaper ?? null;
  if (reaper === null) return { ok: true, definition };
  const reaperBound = await boundFor(reaper, 'reaper', bindings);
  if (!reaperBound.ok) return reaperBound;
  const analysis = await analyzeRole(reaper, 'reaper', reaperBound.bound);
  if (!analysis.ok) return { ok: false, problem: 'problem' in analysis ? analysis.problem : problemOf('reaper', reaper, analysis.error) };
  const withReaper = withCustomReaper(definition, reaper, analysis.shape, null, reaperBound.bound?.sources ?? []);
  if (!withReaper.ok) return { ok: false, problem: { role: 'reaper', kind: 'refused', reason: withReaper.reason, onServer: 'refuses' } };
  return { ok: true, definition: { ...withReaper.definition, label: YOUR_SQL_LABEL } };
}

/**
 * The claim's strategy: one statement, or two in psql's form (`SELECT … \gset`, then the UPDATE using :name),
 * read by the command line's own analysis (analyzeGsetClaimFile) and built as check --claim builds it.
 */
async function buildClaim(text: string, bindings: ParamBindings): Promise<CustomClaim | { ok: false; problem: YourSqlProblem }> {
  let gset: Awaited<ReturnType<typeof analyzeGsetClaimFile>>;
  try {
    gset = await analyzeGsetClaimFile(text);
  } catch (error) {
    return { ok: false, problem: unreadable('claim', error) };
  }
  if (gset) {
    if (!gset.ok) return { ok: false, problem: await gsetProblem(text, gset.error) };
    if (bindings.some((binding) => binding.role === 'claim')) {
      return {
        ok: false,
        problem: { role: 'claim', kind: 'invalid', message: `parameters of your own do not go with a two-statement claim: ${GSET_UPDATE_VALUES}` },
      };
    }
    return twoStatementClaim(gset.claim, null);
  }
  const bound = await boundFor(text, 'claim', bindings);
  if (!bound.ok) return bound;
  const analysis = await analyzeRole(text, 'claim', bound.bound);
  if (!analysis.ok) return { ok: false, problem: 'problem' in analysis ? analysis.problem : problemOf('claim', text, analysis.error) };
  return customClaimStrategy(text, analysis.shape, null, {}, bound.bound?.sources ?? null);
}

/**
 * Why a two-statement claim was refused. One refusal (gset-lock) holds both what no database plays (FOR
 * SHARE) and what only PGlite cannot replay (a waiting FOR UPDATE without LIMIT 1): check --db's own
 * analysis (without the engine's refusals) says which.
 */
async function gsetProblem(text: string, error: AnalyzeError): Promise<YourSqlProblem> {
  const problem = problemOf('claim', text, error);
  if (problem.kind !== 'refused' || problem.onServer === undefined) return problem;
  const onServer = await analyzeGsetClaimFile(text, { engineRefusals: false });
  return { ...problem, onServer: onServer?.ok ? 'plays' : 'refuses' };
}

/** A statement's bound values (null: its role's contract), by the rules `check --param` uses (bindStatement, as check's boundParameters). */
async function boundFor(
  text: string,
  role: YourSqlRole,
  bindings: ParamBindings,
): Promise<{ ok: true; bound: BoundParameters | null } | { ok: false; problem: YourSqlProblem }> {
  let used: number[] | null;
  try {
    used = await parametersUsed(text);
  } catch (error) {
    // Finding its $n walks the parse tree as the analysis does: a statement nested too deeply fails here first.
    return { ok: false, problem: unreadable(role, error) };
  }
  // A statement that does not parse: its analysis says where, with no bound parameters in the way.
  if (used === null) return { ok: true, bound: null };
  const bound = bindStatement(used, bindings, role, 'it', ROW_SYNTAX);
  return bound.ok ? { ok: true, bound: bound.value } : { ok: false, problem: { role, kind: 'invalid', message: bound.message } };
}

/** The bindings a statement was built with, as written; none when it takes its role's own values. */
function bindingsOf(role: YourSqlRole, params: readonly ParamSource[]): string[] {
  const contract = labValues(role);
  const asContract = params.every((source, i) => source === contract[i]);
  // A write takes its contract's first values (as many as it uses); the claim all of them.
  if (asContract && (role !== 'claim' || params.length === contract.length)) return [];
  return params.map((source, i) => bindingFlag(role, i + 1, source));
}

type AnalyzeError = Extract<Awaited<ReturnType<typeof analyzeStatement>>, { ok: false }>['error'];

function problemOf(role: YourSqlRole, text: string, error: AnalyzeError): YourSqlProblem {
  if (error.kind === 'syntax') {
    const lineText = Array.from(text).join('').split('\n')[error.line - 1] ?? '';
    return { role, kind: 'syntax', message: error.message, line: error.line, column: error.column, lineText };
  }
  if (error.kind === 'refused') {
    const { id, reason } = error.refusal;
    if (NAMES_ITS_CHECK.has(id)) return { role, kind: 'refused', reason };
    return { role, kind: 'refused', reason, onServer: ENGINE_ONLY_REFUSALS.has(id) ? 'plays' : 'refuses' };
  }
  return { role, kind: 'invalid', message: error.message };
}

/** The statements a definition built here plays (as the engine runs them: trimmed, no final ";"); null for a built-in strategy. */
export function yourSqlTextsOf(definition: StrategyDefinition | undefined): YourSqlTexts | null {
  if (!definition || definition.claim.shape !== 'one-statement' || definition.claim.claim.id !== CUSTOM_CLAIM_IDS.claim) return null;
  const { readFirst } = definition.claim;
  // A two-statement claim is given back as written: its UPDATE takes :name, never a binding of the learner's.
  const params = readFirst ? [] : bindingsOf('claim', definition.claim.claim.params);
  const own = (role: WriteRole) => {
    const statement = definition[DEFINITION_KEYS[role]].fenced;
    if (statement.id !== CUSTOM_WRITE_IDS[role]) return null;
    params.push(...bindingsOf(role, statement.params));
    return statement.text;
  };
  const texts: YourSqlTexts = {
    claim: readFirst?.written ?? definition.claim.claim.text,
    heartbeat: own('heartbeat'),
    work: own('work'),
    complete: own('complete'),
  };
  const sweep = ownReaperOf(definition);
  if (sweep !== null) {
    texts.reaper = sweep.text;
    params.push(...bindingsOf('reaper', sweep.params));
  }
  return params.length === 0 ? texts : { ...texts, params };
}

/** Whether the two play the same statements: compared as the lab sends them (a final ";" or blank lines change nothing). */
export function sameTexts(a: YourSqlTexts | null, b: YourSqlTexts | null): boolean {
  if (a === null || b === null) return a === b;
  const asRun = (text: string | null) => (text === null ? null : textAsRun(text));
  return (
    asRun(a.claim) === asRun(b.claim) &&
    WRITE_ROLES.every((role) => asRun(a[role]) === asRun(b[role])) &&
    asRun(a.reaper ?? null) === asRun(b.reaper ?? null) &&
    sameBindings(a.params ?? [], b.params ?? [])
  );
}

/**
 * The same bindings, in any order, as the lab plays them ("3='5'" binds what "3=5" does, and a statement
 * bound to its contract's own values, `1=worker,2=lease`, plays as one bound to nothing: bindingsOf).
 */
function sameBindings(a: readonly string[], b: readonly string[]): boolean {
  const read = (flags: readonly string[]) => {
    const parsed = parseBindings(flags, ROW_SYNTAX);
    return parsed.ok ? YOUR_SQL_ROLES.flatMap((role) => playedBindings(role, parsed.value)).sort() : [...flags];
  };
  return JSON.stringify(read(a)) === JSON.stringify(read(b));
}

/** A statement's bindings as the lab plays them: numbered $1… in order, as bindingsOf writes them back; else each as it is. */
function playedBindings(role: YourSqlRole, bindings: ParamBindings): string[] {
  const own = bindings.filter((binding) => binding.role === role).sort((x, y) => x.position - y.position);
  const numbered = own.every((binding, i) => binding.position === i + 1);
  if (!numbered) return own.map((binding) => bindingFlag(role, binding.position, binding.source));
  const sources = own.map((binding) => binding.source);
  return bindingsOf(role, sources);
}

/** What a role's words are in the editor and in messages (their home: strategies/custom.ts). */
export { ROLE_NAMES };

/** The two statements of a claim written psql's way, as the editor names them (their home: strategies/custom.ts). */
export { TWO_STATEMENT_NAMES } from '../strategies/custom';

/** The `:name` a two-statement claim's UPDATE uses and the $n the lab binds it as, read without the parser (sql/analyze/psql-lex.ts). */
export { gsetVariableOf } from '../sql/analyze/psql-lex';

/** The longest statement kept (the analyzer takes at most this many characters, sql/analyze/analyze.ts). */
const MAX_TEXT_CHARS = 16_000;

/** Statements read back from storage (untrusted): null unless a claim string and each write a string or null, none too long. */
export function checkTexts(value: unknown): YourSqlTexts | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const text = (v: unknown) => typeof v === 'string' && v.length <= MAX_TEXT_CHARS;
  if (!text(record.claim)) return null;
  const writes: Partial<Record<WriteRole, string | null>> = {};
  for (const role of WRITE_ROLES) {
    const v = record[role] ?? null;
    if (v !== null && !text(v)) return null;
    writes[role] = v as string | null;
  }
  const texts: YourSqlTexts = {
    claim: record.claim as string,
    heartbeat: writes.heartbeat ?? null,
    work: writes.work ?? null,
    complete: writes.complete ?? null,
  };
  const reaper = record.reaper ?? null;
  if (reaper !== null && !text(reaper)) return null;
  if (reaper !== null) texts.reaper = reaper as string;
  const params = record.params;
  if (params === undefined) return texts;
  const short = (v: unknown) => typeof v === 'string' && v.length <= MAX_BINDING_CHARS;
  if (!Array.isArray(params) || params.length > MAX_BINDINGS || !params.every(short)) return null;
  return params.length === 0 ? texts : { ...texts, params: params as string[] };
}

/** More bindings than five statements have parameters, and longer than any value a test needs, are not kept. */
const MAX_BINDINGS = 64;
const MAX_BINDING_CHARS = 1_000;

/** A problem as part of a sentence: "the claim's line 3, column 1: syntax error at or near "WERE"". */
export function describeProblem(problem: YourSqlProblem): string {
  const whose = problem.role === null ? '' : `the ${ROLE_NAMES[problem.role]}: `;
  switch (problem.kind) {
    case 'syntax':
      return `${whose}line ${problem.line}, column ${problem.column}: ${problem.message}`;
    case 'refused':
      return `${whose}refused: ${problem.reason}`;
    case 'invalid':
      return `${whose}${problem.message}`;
  }
}
