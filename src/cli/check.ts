/**
 * `npm run sim -- check <scenario> --claim FILE`: someone's own claim statement, read by PostgreSQL's parser,
 * played over every schedule of a scenario on PGlite, or with `--db URL` on a PostgreSQL server with one
 * connection per worker (past the state limit: a seeded sample, labelled as one). Exit 1 when some schedule ends in a kind of
 * DEFAULT_FAIL_ON (or --fail-on), 0 when none does; bad input (a file it cannot read, a syntax error, a shape the lab
 * cannot replay exactly) is an error with `userFacing` set, which main.ts prints as one line with exit 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { type Exploration, OUTCOME_LABELS, type OutcomeGroup } from '../engine/explore';
import { listWorkers } from '../sim/anomalies';
import { isAuthoredId, specOf } from '../scenarios/authored';
import { reaperScenario } from '../scenarios/reaper-lane';
import { encodeSpec, SCENARIO_KEY } from '../scenarios/link';
import {
  type AnalyzeError,
  analyzeGsetClaimFile,
  analyzeHeldSelectFile,
  analyzeStatement,
  bindHeldCompletion,
  type GsetAnalysis,
  parametersUsed,
} from '../sql/analyze';
import { gsetParametersWritten, isGsetClaim } from '../sql/analyze/psql-lex';
import { OUTCOME_KINDS, type OutcomeKind, type Scenario, type Settings } from '../sim/types';
import { type StrictIsolation, strictReadingLine } from '../sim/isolation';
import { isolationNote } from './format';
import { clip, printablePath, YOUR_SQL } from './scenario-option';
import {
  type CustomOptions,
  CUSTOM_WRITE_IDS,
  customClaimStrategy,
  customWrite,
  holdForJobClaim,
  ownReaperOf,
  twoStatementClaim,
  withCustomReaper,
  type WriteRole,
} from '../strategies/custom';
import type { StrategyDefinition } from '../strategies';
import type { AfterWait } from '../strategies/types';
import {
  type BindingRole,
  type BoundParameters,
  bindStatement,
  encodeBindings,
  NO_BINDINGS,
  PARAMS_KEY,
  type ParamBindings,
  parseBindings,
  FLAG_SYNTAX,
  readBinding,
} from '../sim/param-bindings';

/** Far longer than any claim; the analyzer refuses past its own limit anyway. */
const MAX_FILE_BYTES = 1_000_000;

/**
 * The outcomes that fail a check unless `--fail-on` says otherwise: a run handed to a second worker while the
 * first one's lease was live, one run executed by two workers under live leases, a stale owner's write
 * committed over the new owner's, or a run lost for good: left running under a dead worker, and the claim
 * itself, run a day after the lease expired, does not take it back (the select-then-update claims' stranded
 * run, which the explorer shows for them as an anomaly like the others). Duplicate work after a lease ran out
 * (`duplicate-after-expiry`) is not among them: any lease-based queue allows it (at-least-once), the lab's
 * recommended claim with fencing on too.
 */
export const DEFAULT_FAIL_ON: readonly OutcomeKind[] = ['double-claim', 'duplicate-execution', 'split-ownership', 'stranded-run'];

/** `--fail-on`'s word for every outcome kind. */
const FAIL_ON_ALL = 'all';

/** `--fail-on KINDS`: a comma list of outcome kinds, or `all`; anything else is one line of bad input. */
export function parseFailOn(text: string): OutcomeKind[] {
  const words = text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  const valid = `the kinds are ${listWorkers([...OUTCOME_KINDS, FAIL_ON_ALL])}`;
  if (words.length === 0) throw new CheckInputError(`--fail-on needs one or more kinds, comma-separated; ${valid}`);
  if (words.includes(FAIL_ON_ALL)) return [...OUTCOME_KINDS];
  const unknown = words.find((word) => !(OUTCOME_KINDS as readonly string[]).includes(word));
  if (unknown !== undefined) throw new CheckInputError(`--fail-on: unknown kind "${clip(unknown)}"; ${valid}`);
  return OUTCOME_KINDS.filter((kind) => words.includes(kind));
}

/** "double claim, duplicate execution or split ownership". */
function kindWords(kinds: readonly OutcomeKind[]): string {
  const words = kinds.map((kind) => OUTCOME_LABELS[kind]);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

class CheckInputError extends Error {
  readonly userFacing = true;
}

/** The claim file's text, or a one-line reason it cannot be read. A UTF-8 byte-order mark is no part of the SQL. */
function readClaimFile(path: string, flag = '--claim'): string {
  const shown = printablePath(path);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new CheckInputError(`${flag} ${shown}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof CheckInputError) throw error;
    const code = (error as { code?: string }).code;
    throw new CheckInputError(`${flag} ${shown}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'unknown error'})`}`);
  }
  if (size > MAX_FILE_BYTES) throw new CheckInputError(`${flag} ${shown}: ${size} bytes, far more than a claim statement (at most ${MAX_FILE_BYTES})`);
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    throw new CheckInputError(`${flag} ${shown}: cannot read it (${(error as { code?: string }).code ?? 'unknown error'})`);
  }
}

/** The analyzer's answer; a statement nested past the JavaScript stack (1,400 NOT( …) is bad input, in one line. */
async function analyzeFile(
  text: string,
  role: Parameters<typeof analyzeStatement>[1],
  shown: string,
  options: CustomOptions,
  bound: BoundParameters | null = null,
) {
  try {
    return await analyzeStatement(text, role, { engineRefusals: !options.onServer, ...(bound ? { parameters: bound.parameters } : {}) });
  } catch (error) {
    if (error instanceof RangeError) throw new CheckInputError(`${shown}: the statement is nested too deeply for the lab to read`);
    throw error;
  }
}

/**
 * The strategy that claims with the file's statement, or a one-line error. `onServer` (check --db): the
 * shapes PostgreSQL runs but PGlite cannot replay through a wait are played too, since the wait is real there.
 */
export async function claimStrategyFromFile(
  path: string,
  options: CustomOptions = {},
  bindings: ParamBindings = NO_BINDINGS,
): Promise<{ definition: StrategyDefinition; summary: string }> {
  const text = readClaimFile(path);
  const shown = printablePath(path);
  const gsetBound = isGsetClaim(text) ? gsetBoundParameters(text, shown, bindings) : null;
  const gset = await analyzeGsetFile(text, shown, options, gsetBound);
  if (gset) return twoStatementFromFile(gset, shown, options, gsetBound);
  const bound = await boundParameters(text, shown, 'claim', bindings);
  const analysis = await analyzeFile(text, 'claim', shown, options, bound);
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(shown, analysis.error));
  const { contract, used } = analysis.shape.parameters;
  if (!bound && used.length < contract.length) {
    // The lab binds every claim's two values; PostgreSQL refuses a statement given more values than it uses.
    const missing = contract.filter((p) => !used.includes(p.number)).map((p) => `$${p.number} (${p.name})`);
    throw new CheckInputError(
      `${shown}: refused: the claim does not use ${missing.join(' or ')}; the lab passes every claim $1 worker and $2 lease seconds, so it must use both (one it does not need can be named in a test that is always true: ${contract
        .filter((p) => !used.includes(p.number))
        .map((p) => `AND $${p.number}::${p.type} IS NOT NULL`)
        .join(' ')}), or bind the parameters it does use with --param (e.g. --param 1=worker)`,
    );
  }
  const built = customClaimStrategy(text, analysis.shape, shown, options, bound?.sources ?? null);
  if (!built.ok) throw new CheckInputError(`${shown}: refused: ${built.reason}`);
  const lock = analysis.shape.locks[0];
  const claim = built.definition.claim;
  const afterWait = claim.shape === 'one-statement' ? claim.claim.afterWait.kind : 'none';
  const words = waitWords(afterWait, options);
  const summary = `${lock ? `${lockClauseWords(lock)} in the ${lock.where.kind === 'cte' ? `CTE ${lock.where.name}` : lock.where.kind}` : 'no locking clause'}: ${words}`;
  return { definition: built.definition, summary: `${summary}${advisoryWords(analysis.shape.advisoryLocks)}` };
}

/**
 * A claim held for the whole job (--hold-for-job): the file's lone `SELECT … \gset`, and the completion that
 * ends its transaction (`completePath`, using the \gset's :run_id); its strategy and summary, or a one-line error.
 */
export async function heldClaimFromFiles(
  path: string,
  completePath: string | undefined,
  options: CustomOptions = {},
): Promise<{ definition: StrategyDefinition; summary: string }> {
  const text = readClaimFile(path);
  const shown = printablePath(path);
  if (completePath === undefined) {
    throw new CheckInputError(
      '--hold-for-job needs --complete FILE: the write that ends the job and its transaction (DELETE FROM runs WHERE run_id = :run_id, or an UPDATE … RETURNING)',
    );
  }
  if (!isGsetClaim(text)) {
    throw new CheckInputError(
      `${shown}: --hold-for-job takes a SELECT … \\gset (psql's form): the run it keeps as :run_id is the one the job and its completion hold`,
    );
  }
  let held: Awaited<ReturnType<typeof analyzeHeldSelectFile>>;
  try {
    held = await analyzeHeldSelectFile(text, { engineRefusals: !options.onServer });
  } catch (error) {
    if (error instanceof RangeError) throw new CheckInputError(`${shown}: the statement is nested too deeply for the lab to read`);
    throw error;
  }
  if (!held.ok) throw new CheckInputError(analyzeErrorLine(shown, held.error));
  const completeShown = printablePath(completePath);
  const written = readClaimFile(completePath, '--complete');
  const bound = bindHeldCompletion(written, held.claim.variable);
  if (!bound.ok) throw new CheckInputError(`${completeShown}: ${bound.message}`);
  const analysis = await analyzeFile(bound.text, 'complete', completeShown, options);
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(completeShown, analysis.error));
  const built = customWrite('complete', bound.text, analysis.shape, completeShown, options, null);
  if (!built.ok) throw new CheckInputError(`${completeShown}: refused: ${built.reason}`);
  const lock = held.claim.selectShape.lock;
  const clause = lock ? ` … ${lockClauseWords(lock)}` : '';
  const what = selectLockWords(lock, { kept: '', unlocked: 'another worker may take the same run while the job runs' });
  const summary = `SELECT${clause} \\gset, its transaction held for the whole job: the SELECT ${what}; the model calls run while it stays open (no heartbeat and no lease expiry: the row lock is the lease, and it ends with the transaction); the completion, with :${held.claim.variable} as $1, runs in it and commits in the same step; a crash rolls it back`;
  return { definition: holdForJobClaim(held.claim, shown, built.statement), summary };
}

/** A row-lock clause as the claim writes it: FOR UPDATE, FOR NO KEY UPDATE SKIP LOCKED, … */
function lockClauseWords(lock: { strength: string; wait: string }): string {
  return `FOR ${lock.strength.toUpperCase()}${lock.wait === 'wait' ? '' : ` ${lock.wait.toUpperCase()}`}`;
}

/** How the lab resumes a finder that waited, as PostgreSQL does (EvalPlanQual re-checks only the row waited for). */
const RELOCKS = 'relocks the runs it had found, in order';

/**
 * What a claim's SELECT (`… \gset`) does where it meets a row another transaction holds, in the summary's
 * words: `kept` says how long it keeps the row it returns, `unlocked` what a SELECT that locks nothing allows.
 */
function selectLockWords(lock: { wait: string } | null | undefined, { kept, unlocked }: { kept: string; unlocked: string }): string {
  return !lock
    ? `locks nothing, so ${unlocked}`
    : lock.wait === 'skip locked'
      ? `skips rows another transaction holds and locks the one it returns${kept}`
      : lock.wait === 'nowait'
        ? `fails with 55P03 on a row another transaction holds (the worker tries again), and locks the one it returns${kept}`
        : `waits for a row another transaction holds; after the wait it ${RELOCKS}, and returns the first that still qualifies, locked${kept}`;
}

/** What the claim's UPDATE does where it meets a row another worker holds, in the summary's words. */
function waitWords(afterWait: AfterWait['kind'] | 'none', options: CustomOptions): string {
  return afterWait === 'cannot-wait'
    ? 'never waits for a row lock its finder meets'
    : afterWait === 'resume-found'
      ? 'its UPDATE waits; after the wait it re-checks the row it waited for against what its finder found before waiting (EvalPlanQual), not a fresh look'
      : afterWait === 'server-only'
        ? options.onServer
          ? 'may wait; after a wait it does what the server does (the lab could not replay that on PGlite)'
          : 'may wait; on PGlite a schedule where it would wait is refused there (check it on a real server with --db URL)'
        : `waits; after the wait it ${RELOCKS}, and claims the first that still qualifies`;
}

/** A claim file with psql's \gset, analyzed (null: none, one statement); a statement nested too deeply is bad input. */
async function analyzeGsetFile(text: string, shown: string, options: CustomOptions, bound: BoundParameters | null): Promise<GsetAnalysis | null> {
  try {
    return await analyzeGsetClaimFile(text, { engineRefusals: !options.onServer, ...(bound ? { parameters: bound.parameters } : {}) });
  } catch (error) {
    if (error instanceof RangeError) throw new CheckInputError(`${shown}: the statement is nested too deeply for the lab to read`);
    throw error;
  }
}

/**
 * The claim's own parameters of a two-statement claim as --param binds them: one list for both statements
 * (the $n either uses, each bound, each bound one used), or null when none is bound (the contract then).
 * psql's lexer finds them, so a syntax error is still the parser's to report.
 */
function gsetBoundParameters(text: string, shown: string, bindings: ParamBindings): BoundParameters | null {
  const bound = bindStatement(gsetParametersWritten(text), bindings, 'claim', shown, FLAG_SYNTAX);
  if (!bound.ok) throw new CheckInputError(bound.message);
  return bound.value;
}

/**
 * A two-statement claim (`SELECT … \gset`, then the UPDATE that uses it as :name): its strategy and summary,
 * or a one-line error. The UPDATE gets $1 worker, $2 lease seconds and the SELECT's run_id as $3; with the
 * claim's parameters bound (`bound`), each statement its own values and the UPDATE the run's id after them.
 */
function twoStatementFromFile(
  gset: GsetAnalysis,
  shown: string,
  options: CustomOptions,
  bound: BoundParameters | null,
): { definition: StrategyDefinition; summary: string } {
  if (!gset.ok) throw new CheckInputError(analyzeErrorLine(shown, gset.error));
  const { claim } = gset;
  const built = twoStatementClaim(claim, shown, options, bound?.sources ?? null);
  if (!built.ok) throw new CheckInputError(`${shown}: refused: ${built.reason}`);
  const lock = claim.selectShape.lock;
  const selectWords = selectLockWords(lock, { kept: ' until the claim commits', unlocked: 'another worker may take the run before the UPDATE' });
  const select = `SELECT${lock ? ` … ${lockClauseWords(lock)}` : ''} \\gset, then the UPDATE with :${claim.variable} bound as $${claim.runParameter}, one transaction, a step each`;
  const definition = built.definition.claim;
  const updateWait = definition.shape === 'one-statement' ? definition.claim.afterWait.kind : 'none';
  return {
    definition: built.definition,
    summary: `${select}: the SELECT ${selectWords}; the UPDATE, on a row another worker holds, ${waitWords(updateWait, options).replace(/^its UPDATE /, '')}`,
  };
}

/**
 * What the claim's advisory locks hold on the server, where each worker is a connection of its own: a
 * session-level lock outlives the claim's transaction and ends with an unlock (a statement of yours that calls
 * pg_advisory_unlock, e.g. the completion, as que and good_job unlock after the job) or with the connection
 * (a crash: pg_terminate_backend); a transaction-level one with the transaction.
 */
function advisoryWords(locks: readonly string[]): string {
  const words: string[] = [];
  const session = ['pg_try_advisory_lock', 'pg_advisory_lock', 'pg_try_advisory_lock_shared', 'pg_advisory_lock_shared'].filter((name) => locks.includes(name));
  if (session.length > 0) {
    words.push(
      `${session.join(', ')}: a session lock, held by the worker's connection after its claim commits, through its work and completion, until a statement of yours unlocks it (pg_advisory_unlock, e.g. in --complete FILE, where que and good_job unlock after the job; the lab's own statements never do) or a crash ends that connection`,
    );
  }
  // On PGlite the claim's parked (prepared) transaction holds it: released by its COMMIT PREPARED, or ROLLBACK PREPARED at a crash.
  const xact = ['pg_try_advisory_xact_lock', 'pg_advisory_xact_lock', 'pg_try_advisory_xact_lock_shared', 'pg_advisory_xact_lock_shared'].filter((name) =>
    locks.includes(name),
  );
  if (xact.length > 0) words.push(`${xact.join(', ')}: held until the claim's transaction commits or rolls back`);
  if (locks.some((name) => /^pg_advisory_(xact_)?lock/.test(name)))
    words.push('a worker that asks for an advisory lock another holds waits on the server, shown as waiting, until the holder lets go');
  return words.map((word) => `; ${word}`).join('');
}

/** `--param` flags, each `[STATEMENT:]N=VALUE` (sim/param-bindings.ts has the rules the page shares). */
export function parseParamFlags(flags: readonly string[]): ParamBindings {
  const parsed = parseBindings(flags, FLAG_SYNTAX);
  if (!parsed.ok) throw new CheckInputError(parsed.message);
  return parsed.value;
}

/** The statement's values as `--param` binds them, or null when nothing binds it (see bindStatement). */
async function boundParameters(text: string, shown: string, role: BindingRole, bindings: ParamBindings): Promise<BoundParameters | null> {
  const used = await parametersUsed(text);
  // A statement that does not parse: its analysis says where, with no bound parameters in the way.
  if (used === null) return null;
  const bound = bindStatement(used, bindings, role, shown, FLAG_SYNTAX);
  if (!bound.ok) throw new CheckInputError(bound.message);
  return bound.value;
}

const WRITE_KEYS = { heartbeat: 'heartbeat', work: 'work', complete: 'complete' } as const satisfies Record<WriteRole, keyof StrategyDefinition>;

/** The definition with the statement of `path` as both its fenced and its unfenced write for `role`. */
export async function withWriteFromFile(
  definition: StrategyDefinition,
  role: WriteRole,
  path: string,
  options: CustomOptions = {},
  bindings: ParamBindings = NO_BINDINGS,
): Promise<StrategyDefinition> {
  const text = readClaimFile(path, `--${role}`);
  const shown = printablePath(path);
  const bound = await boundParameters(text, shown, role, bindings);
  const analysis = await analyzeFile(text, role, shown, options, bound);
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(shown, analysis.error));
  const built = customWrite(role, text, analysis.shape, shown, options, bound?.sources ?? null);
  if (!built.ok) throw new CheckInputError(`${shown}: refused: ${built.reason}`);
  return { ...definition, label: `${definition.label}, your ${role} (${shown})`, [WRITE_KEYS[role]]: { fenced: built.statement, unfenced: built.statement } };
}

/** The claim's strategy with each write given in `files` (by role) in place of the lab's. */
export async function withWritesFromFiles(
  definition: StrategyDefinition,
  files: Partial<Record<WriteRole, string>>,
  options: CustomOptions = {},
  bindings: ParamBindings = NO_BINDINGS,
): Promise<StrategyDefinition> {
  let result = definition;
  for (const role of Object.keys(WRITE_KEYS) as WriteRole[]) {
    const path = files[role];
    if (path !== undefined) result = await withWriteFromFile(result, role, path, options, bindings);
    else if (bindings.some((binding) => binding.role === role)) throw new CheckInputError(`--param ${role}:…: there is no --${role} FILE to bind`);
  }
  return result;
}

/**
 * The definition with the statement of `path` as its reaper: the rescuer's one statement (--reaper), its own
 * parameters bound by `--param reaper:N=VALUE`; without a path, the definition as it is.
 */
export async function withReaperFromFile(
  definition: StrategyDefinition,
  path: string | undefined,
  options: CustomOptions = {},
  bindings: ParamBindings = NO_BINDINGS,
): Promise<StrategyDefinition> {
  if (path === undefined) {
    if (bindings.some((binding) => binding.role === 'reaper')) throw new CheckInputError('--param reaper:…: there is no --reaper FILE to bind');
    return definition;
  }
  const text = readClaimFile(path, '--reaper');
  const shown = printablePath(path);
  const bound = await boundParameters(text, shown, 'reaper', bindings);
  const analysis = await analyzeFile(text, 'reaper', shown, options, bound);
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(shown, analysis.error));
  const built = withCustomReaper(definition, text, analysis.shape, shown, bound?.sources ?? []);
  if (!built.ok) throw new CheckInputError(`${shown}: refused: ${built.reason}`);
  return built.definition;
}

function analyzeErrorLine(path: string, error: AnalyzeError): string {
  if (error.kind === 'syntax') return `${path}:${error.line}:${error.column}: syntax error: ${error.message}`;
  if (error.kind === 'refused') return `${path}: refused (${error.refusal.id}): ${error.refusal.reason}`;
  return `${path}: ${error.message}`;
}

/** The port, guarded against what the lab cannot play of a custom claim (see db/custom-claim-guard.ts). */
export { guardCustomClaim } from '../db/custom-claim-guard';

/** The outcome kinds of a group, from its key ("double-claim:123 duplicate-execution:123"), each once. */
export function groupKinds(group: OutcomeGroup): OutcomeKind[] {
  if (group.key === 'none') return [];
  return [...new Set(group.key.split(' ').map((part) => part.split(':')[0] as OutcomeKind))];
}

/** Leaves the characters schedules are made of readable; escapes everything else (as the lab's own links do). */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2B/g, '+');
}

/**
 * The lab's link to a witness, with the claim's text in `claim=` and each write given as a file in
 * `heartbeat=`, `work=`, `complete=`, the reaper in `reaper=`, and their `--param` bindings in `params=`: the
 * page's "Your SQL" opens the same statements with the same values (store/your-sql-link.ts). A reaper plays on
 * the rescuer's lane check added to a built-in scenario (scenarios/reaper-lane.ts), so that scenario travels whole, as a
 * copy the page opens like one someone wrote.
 */
export function witnessLink(scenario: Scenario, settings: Settings, witness: readonly string[], params: readonly string[] = []): string {
  const definition = settings.definition;
  const claim = definition?.claim;
  // A two-statement claim travels as written (SELECT … \gset, then the UPDATE with :name): the page reads it as check does.
  const text = claim?.shape === 'one-statement' ? (claim.holdForJob?.written ?? claim.readFirst?.written ?? claim.claim.text) : null;
  const sweep = ownReaperOf(definition);
  const laned = text !== null && sweep !== null ? reaperScenario(scenario) : null;
  const reaper = laned === null ? null : sweep;
  // A scenario someone wrote travels whole in the link (scenarios/link.ts), as the page writes it.
  const authored = laned?.spec
    ? [`${SCENARIO_KEY}=${encodeSpec(laned.spec)}`]
    : isAuthoredId(scenario.id)
      ? [`${SCENARIO_KEY}=${encodeSpec(specOf(scenario))}`]
      : [];
  const parts = [`scenario=${encodeValue(laned?.id ?? scenario.id)}`, ...authored];
  if (text !== null) parts.push(`strategy=${YOUR_SQL}`);
  parts.push(`fencing=${settings.fencing ? 'on' : 'off'}`, `schedule=${encodeValue(witness.join(','))}`);
  if (text !== null) parts.push(`claim=${encodeValue(text)}`);
  for (const role of Object.keys(WRITE_KEYS) as WriteRole[]) {
    const write = definition?.[WRITE_KEYS[role]].fenced;
    if (text !== null && write?.id === CUSTOM_WRITE_IDS[role]) parts.push(`${role}=${encodeValue(write.text)}`);
  }
  if (reaper !== null) parts.push(`reaper=${encodeValue(reaper.text)}`);
  // A reaper the link cannot carry is not played there, so none of its bindings either.
  const played = reaper !== null ? params : params.filter((flag) => readBinding(flag).roleWord !== 'reaper');
  if (text !== null && played.length > 0) parts.push(`${PARAMS_KEY}=${encodeBindings(played)}`);
  return `#${parts.join('&')}`;
}

/** Where the schedules ran: PGlite in this process, or a PostgreSQL server (host:port/database). */
export type CheckDatabase = { kind: 'pglite' } | { kind: 'postgres'; server: string };

export interface CheckReport {
  scenario: string;
  database: CheckDatabase;
  /**
   * `params`: the `--param` flags as given (normalized), absent without any. `holdForJob`: the claim's
   * transaction is held for the whole job (--hold-for-job).
   */
  claim: {
    file: string;
    holdForJob?: true;
    summary: string;
    writes: Partial<Record<WriteRole, string>>;
    reaper?: string;
    params?: string[];
  };
  fencing: boolean;
  /** The claims' isolation level above READ COMMITTED (--isolation); absent at READ COMMITTED. */
  isolation?: StrictIsolation;
  coverage: Exploration['coverage'];
  method: Exploration['method'];
  /** A sample's seed (`--seed` replays it) and why it sampled; null when every schedule was played. */
  sample: { seed: number; because: string | null } | null;
  total: number;
  /** The outcome kinds that fail the check (`--fail-on`, else DEFAULT_FAIL_ON). */
  failOn: OutcomeKind[];
  /**
   * Each group with its outcome kinds, and `unsafe` when one of them is in `failOn`. `link`: the page's link
   * to the witness; empty for a claim held for the whole job, which the page does not play.
   */
  groups: (OutcomeGroup & { kinds: OutcomeKind[]; unsafe: boolean; link: string })[];
  unsafeSchedules: number;
  exitCode: 0 | 1;
}

/** --isolation with a two-statement claim: not played yet (each step would go on in the level's explicit transaction, untested). */
export function refuseIsolationWithTwoStatements(settings: Settings, shown: string): void {
  if (settings.isolation && twoStatements(settings)) {
    throw new CheckInputError(`${shown}: --isolation does not go with a two-statement claim yet: it is played at READ COMMITTED only`);
  }
}

/** The claim holds its transaction for the whole job (--hold-for-job). */
function heldForJob(settings: Settings): boolean {
  const claim = settings.definition?.claim;
  return claim?.shape === 'one-statement' && claim.holdForJob !== undefined;
}

function twoStatements(settings: Settings): boolean {
  const claim = settings.definition?.claim;
  return claim?.shape === 'one-statement' && claim.readFirst !== undefined;
}

export function checkReport(
  scenario: Scenario,
  settings: Settings,
  file: string,
  summary: string,
  result: Exploration,
  writes: Partial<Record<WriteRole, string>> = {},
  database: CheckDatabase = { kind: 'pglite' },
  failOn: readonly OutcomeKind[] = DEFAULT_FAIL_ON,
  reaper?: string,
  params: readonly string[] = [],
): CheckReport {
  const groups = result.groups.map((group) => {
    const kinds = groupKinds(group);
    // The page does not play a claim held for the whole job: no link (empty) rather than one it would refuse,
    // but for a scenario someone wrote, which travels in the link that `run --scenario-link` replays.
    const link = heldForJob(settings) && !isAuthoredId(scenario.id) ? '' : witnessLink(scenario, settings, group.witness, params);
    return { ...group, kinds, unsafe: kinds.some((kind) => failOn.includes(kind)), link };
  });
  const unsafeSchedules = groups.filter((group) => group.unsafe).reduce((sum, group) => sum + group.count, 0);
  return {
    scenario: scenario.id,
    database,
    claim: {
      file,
      ...(heldForJob(settings) ? { holdForJob: true as const } : {}),
      summary,
      writes,
      ...(reaper === undefined ? {} : { reaper }),
      ...(params.length === 0 ? {} : { params: [...params] }),
    },
    fencing: settings.fencing,
    ...(settings.isolation ? { isolation: settings.isolation } : {}),
    coverage: result.coverage,
    method: result.method,
    sample: result.coverage === 'sample' ? { seed: result.seed ?? 0, because: result.sampledBecause ?? null } : null,
    total: result.total,
    failOn: [...failOn],
    groups,
    unsafeSchedules,
    exitCode: unsafeSchedules > 0 ? 1 : 0,
  };
}

/** An argument as a POSIX shell reads it back unchanged: bare when it is plain, otherwise in single quotes. */
function shellWord(arg: string): string {
  return /^[A-Za-z0-9_./:=,+@%-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The commands that replay a group's witness step by step (`run`) and the whole sample (`check`), ready to
 * paste: the scenario by name, or for one someone wrote, the group's own link (it carries the scenario).
 */
export function replayCommands(report: CheckReport, group: CheckReport['groups'][number]): { run: string; sample: string } {
  const target = isAuthoredId(report.scenario) ? ['--scenario-link', group.link] : [report.scenario];
  const files = [
    '--claim',
    report.claim.file,
    ...(report.claim.holdForJob ? ['--hold-for-job'] : []),
    ...Object.entries(report.claim.writes).flatMap(([role, path]) => [`--${role}`, path]),
    ...(report.claim.reaper === undefined ? [] : ['--reaper', report.claim.reaper]),
    ...(report.claim.params ?? []).flatMap((flag) => ['--param', flag]),
    '--fencing',
    report.fencing ? 'on' : 'off',
    ...(report.isolation ? ['--isolation', report.isolation] : []),
    ...(report.database.kind === 'postgres' ? ['--db', 'URL'] : []),
  ];
  const command = (words: string[]) => ['npm', 'run', 'sim', '--', ...words.map(shellWord)].join(' ');
  return {
    run: command(['run', ...target, ...files, '--schedule', group.witness.join(',')]),
    sample: command(['check', ...target, ...files, '--sample', String(report.total), '--seed', String(report.sample?.seed ?? 0)]),
  };
}

export function formatCheck(report: CheckReport, seconds: number): string {
  const lines: string[] = [];
  const on = report.database.kind === 'pglite' ? 'PGlite' : `the PostgreSQL server ${report.database.server}, one connection per worker`;
  const which = report.sample
    ? `a sample of ${report.total} schedules, seed ${report.sample.seed}${report.sample.because ? ` (not every schedule: ${report.sample.because})` : ''}`
    : `all ${report.total} schedules`;
  lines.push(
    `${report.scenario}: ${which} with your claim ${report.claim.file}; fencing ${report.fencing ? 'on' : 'off'}${isolationNote(report)} (${report.sample ? 'played' : `explored ${report.method}`} in ${seconds.toFixed(2)} s on ${on})`,
  );
  lines.push(`claim: ${report.claim.summary}`);
  if (report.isolation) lines.push(strictReadingLine(report.isolation));
  lines.push('');
  for (const group of report.groups) {
    lines.push(`${String(group.count).padStart(7)} of ${report.total}  ${group.label}${group.unsafe ? '   <- unsafe' : ''}`);
    lines.push(`         shortest: --schedule ${group.witness.join(',')}`);
    if (group.link !== '') lines.push(`         link: ${group.link}`);
    lines.push(`         replay: ${replayCommands(report, group).run}`);
  }
  lines.push('');
  const first = report.groups[0];
  if (report.sample && first) lines.push(`replay this sample: ${replayCommands(report, first).sample}`);
  if (report.database.kind === 'postgres') lines.push("(--db URL: your server's address, as you gave it; the report never prints it)");
  lines.push(
    report.claim.holdForJob
      ? '(no links: the page does not play a claim held for the whole job yet; the replay commands do)'
      : '(the links carry your statements: the page opens them under "Your SQL")',
  );
  if (report.isolation) lines.push('(the page plays them at READ COMMITTED: a stricter level runs only on a server, with --db)');
  const afterExpiry = report.groups.some((group) => group.kinds.includes('duplicate-after-expiry'));
  if (afterExpiry && !report.failOn.includes('duplicate-after-expiry')) {
    lines.push(
      `(${OUTCOME_LABELS['duplicate-after-expiry']}: a worker whose lease had run out did the work of a run another worker had taken over, the at-least-once any lease allows; it fails the check only with --fail-on duplicate-after-expiry or all)`,
    );
  }
  const words = kindWords(report.failOn);
  lines.push(
    report.exitCode === 1
      ? `UNSAFE: ${report.unsafeSchedules} of ${report.total} schedules end in ${words} (exit 1)`
      : report.sample
        ? `no schedule of this sample ends in ${words} (exit 0; a sample is not every schedule)`
        : `safe here: no schedule ends in ${words} (exit 0)`,
  );
  return lines.join('\n');
}
