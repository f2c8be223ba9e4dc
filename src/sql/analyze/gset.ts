/**
 * A claim in two statements, as real queues and common advice write it (Hangfire.PostgreSql's and DBOS's
 * dequeue; the lab's naive claim), in psql's own syntax, which engineers know:
 *
 *     SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED \gset
 *     UPDATE runs SET … WHERE run_id = :run_id RETURNING run_id, lease_generation, lease_expires_at, cancel_requested;
 *
 * psql's \gset ends the SELECT and keeps its one row's columns as variables (named after the columns, after
 * an optional prefix); `:name` in a later statement is that variable. The lab binds `:name` as a parameter of
 * the UPDATE ($3, after the claim's $1 worker and $2 lease seconds), never by pasting text, so the UPDATE
 * is prepared once and given the run's id as a value. Each statement is a step of the worker, in one
 * transaction (see strategies/custom.ts twoStatementClaim).
 *
 * This file reads the file's text as psql's lexer does, just enough to find `\gset` and `:name` outside
 * quotes, dollar quotes and comments; PostgreSQL's parser reads each statement (./analyze.ts).
 */
import { type AnalyzeError, analyzeGsetSelect, analyzeWith, type GsetSelectShape, type Shape, syntaxError } from './analyze';
import { CONTRACTS, type Parameter } from './contract';
import type { Parser } from './parser';
import { lex, runParameterNumber } from './psql-lex';
import { refusal } from './refusals';

/** The parameter the UPDATE gets the run's id as, numbered after the claim's own (runParameterNumber). */
const runParameter = (number: number): Parameter => ({ number, name: 'run (the \\gset variable)', type: 'integer' });

export interface GsetClaim {
  /** The claim as written, psql's form (the page's link and editor give it back as the learner typed it). */
  written: string;
  /** The SELECT as the file has it, without the \gset. */
  select: string;
  selectShape: GsetSelectShape;
  /** The UPDATE with each `:name` bound as $`runParameter`, as the lab sends it. */
  update: string;
  /** The UPDATE's parameter number for the run's id: the first after its own ($3 after $1 worker and $2 lease seconds). */
  runParameter: number;
  updateShape: Shape;
  /** The variable the UPDATE uses (with the \gset's prefix), set from the SELECT's run_id. */
  variable: string;
  /** The SELECT's column that variable comes from (run_id, or its alias). */
  runColumn: string;
}

export type GsetAnalysis = { ok: true; claim: GsetClaim } | { ok: false; error: AnalyzeError };

const bad = (message: string): { ok: false; error: AnalyzeError } => ({ ok: false, error: { kind: 'invalid', message } });
const refusedWith = (id: Parameters<typeof refusal>[0], detail: string): { ok: false; error: AnalyzeError } => {
  const why = refusal(id, detail);
  return { ok: false, error: { kind: 'refused', refusal: why, message: why.reason } };
};

export { isGsetClaim } from './psql-lex';

/**
 * The two statements of a claim file with a \gset, each analyzed, or why the lab cannot play it (one line).
 * `engineRefusals` false (a check on a real server) keeps what only PGlite cannot replay. `bound`: the claim's
 * own parameters as --param binds them, one list for both statements (a $n is the same value in each), each
 * statement given $1 up to the highest it uses (the analyzer refuses a gap: PostgreSQL could not type it);
 * null: the claim's contract, $1 worker and $2 lease seconds.
 */
export function analyzeGsetClaim(parser: Parser, text: string, engineRefusals = true, bound: readonly Parameter[] | null = null): GsetAnalysis {
  const { metas } = lex(text);
  const other = metas.find((meta) => meta.name !== 'gset');
  if (other) return bad(`psql's \\${other.name}: the lab reads one psql command, \\gset (the SELECT's one row kept as variables)`);
  if (metas.length > 1) {
    return refusedWith('several-statements', `${metas.length} \\gset: the lab plays a SELECT … \\gset and then one UPDATE that uses it, two statements in all`);
  }
  const meta = metas[0]!;
  const claimParameters = bound ?? CONTRACTS.claim.parameters;
  const read = readSelect(parser, text, meta, claimParameters, engineRefusals);
  if (!read.ok) return read;
  const { prefix, select, selected } = read;
  const rest = text.slice(meta.end);
  const nothing = parser.parse(rest);
  if (nothing.ok && (nothing.tree.stmts ?? []).length === 0) {
    return bad(
      "\\gset with no statement after it: the SELECT's answer feeds nothing (write the UPDATE … WHERE run_id = :run_id after it, or, to hold its transaction for the whole job, check --hold-for-job --complete FILE)",
    );
  }
  const withRun = bind(rest, prefix, selected.shape, bound === null ? CONTRACTS.claim.parameters.length : null);
  if (!withRun.ok) return withRun.error;
  const { run } = withRun;
  const after = parser.parse(withRun.text);
  const count = after.ok ? (after.tree.stmts ?? []).length : 1;
  if (count > 1) return refusedWith('several-statements', `${count + 1} statements: the lab plays a SELECT … \\gset and then one UPDATE that uses it`);
  const parameters = [...claimParameters.filter((p) => p.number < run), runParameter(run)];
  const analyzed = analyzeWith(parser, withRun.text, 'claim', { engineRefusals, parameters });
  if (!analyzed.ok) return { ok: false, error: placed(analyzed.error, text, (cursor) => meta.end + restIndex(rest, cursor, run)) };
  return {
    ok: true,
    claim: {
      written: text,
      select,
      selectShape: selected.shape,
      update: withRun.text,
      runParameter: run,
      updateShape: analyzed.shape,
      variable: withRun.variable,
      runColumn: withRun.variable.slice(prefix.length),
    },
  };
}

/** \gset alone, or with one prefix for the variables' names. */
const GSET_PREFIX = /^([A-Za-z_][A-Za-z0-9_]*)?$/;

function badPrefix(prefix: string): { ok: false; error: AnalyzeError } {
  return bad(`\\gset ${prefix}: the lab takes \\gset alone or with one prefix for the variables' names`);
}

/**
 * The SELECT before the file's \gset (`meta`), analyzed with `parameters`, and the \gset's prefix; or why
 * not, a syntax error placed in the whole text as written.
 */
function readSelect(
  parser: Parser,
  text: string,
  meta: { start: number; args: string },
  parameters: readonly Parameter[],
  engineRefusals: boolean,
): { ok: true; prefix: string; select: string; selected: Extract<ReturnType<typeof analyzeGsetSelect>, { ok: true }> } | { ok: false; error: AnalyzeError } {
  const prefix = meta.args;
  if (!GSET_PREFIX.test(prefix)) return badPrefix(prefix);
  const select = text.slice(0, meta.start).trim().replace(/;$/, '');
  const selected = analyzeGsetSelect(parser, select, parameters, engineRefusals);
  const selectStart = meta.start - text.slice(0, meta.start).trimStart().length;
  if (!selected.ok) return { ok: false, error: placed(selected.error, text, (cursor) => selectStart + cursor) };
  return { ok: true, prefix, select, selected };
}

/**
 * A syntax error in one of the two statements, placed in the whole text as written (its line and column
 * there, so the page's caret and check's message point at what the learner typed). `at`: the error's
 * cursor in the statement analyzed, as an index into `text`.
 */
function placed(error: AnalyzeError, text: string, at: (cursor: number) => number): AnalyzeError {
  if (error.kind !== 'syntax') return error;
  return syntaxError(text, error.message, Array.from(text.slice(0, at(error.cursor))).length);
}

/** Where a cursor into the UPDATE as sent (trimmed, each `:name` as $`run`) is in the text after the \gset. */
function restIndex(rest: string, cursor: number, run: number): number {
  const sent = `$${run}`.length;
  let at = cursor + rest.length - rest.trimStart().length;
  for (const found of lex(rest).variables) {
    if (at < found.start + sent) break;
    at += found.end - found.start - sent;
  }
  return at;
}

/**
 * The UPDATE with each `:name` the \gset set from run_id bound as its run parameter; or why not.
 * `contract`: how many parameters the lab gives the claim when none is bound (a $n past them is refused);
 * null when the claim's parameters are bound (check --param): the run's is then the first after the UPDATE's own.
 */
function bind(
  rest: string,
  prefix: string,
  shape: { columns: GsetSelectShape['columns'] },
  contract: number | null,
): { ok: true; text: string; variable: string; run: number } | { ok: false; error: GsetAnalysis } {
  const lexed = lex(rest);
  const set = new Map(shape.columns.map((column) => [`${prefix}${column.name}`, column.runId]));
  const setNames = [...set.keys()].map((name) => `:${name}`).join(', ') || 'nothing';
  const run = runParameterNumber(rest, contract ?? 0);
  if (contract !== null && lexed.highestParameter > contract) {
    return {
      ok: false,
      error: refusedWith(
        'parameter-out-of-contract',
        `the UPDATE uses $${lexed.highestParameter}; it gets $1 worker, $2 lease seconds and the \\gset's run id as :name`,
      ),
    };
  }
  let variable: string | null = null;
  for (const found of lexed.variables) {
    if (found.quoted)
      return { ok: false, error: refusedWith('gset-variable', `:${rest.slice(found.start + 1, found.end)} pastes the value as text; write :${found.name}`) };
    const runId = set.get(found.name);
    if (runId === undefined) return { ok: false, error: refusedWith('gset-variable', `:${found.name} is not set by the \\gset, which sets ${setNames}`) };
    if (!runId) return { ok: false, error: refusedWith('gset-variable', `:${found.name} is not the SELECT's run_id`) };
    variable = found.name;
  }
  if (variable === null) {
    return {
      ok: false,
      error: refusedWith('gset-variable', `the UPDATE uses none of ${setNames}: without the SELECT's answer the two statements are not one claim`),
    };
  }
  let text = '';
  let at = 0;
  for (const found of lexed.variables) {
    text += `${rest.slice(at, found.start)}$${run}`;
    at = found.end;
  }
  text += rest.slice(at);
  return { ok: true, text: text.trim(), variable, run };
}

/**
 * A claim that holds its transaction for the whole job (check --hold-for-job; gue's LockJob, neoq's): the
 * `SELECT … \gset` alone. Its transaction is not ended by the claim but by the completion, which uses the
 * run's id as :name (bindHeldCompletion).
 */
export interface HeldSelect {
  /** The file as written, psql's form. */
  written: string;
  /** The SELECT as the file has it, without the \gset. */
  select: string;
  selectShape: GsetSelectShape;
  /** The variable the \gset sets from the row's run_id (with its prefix). */
  variable: string;
  /** The SELECT's column that variable comes from (run_id, or its alias). */
  runColumn: string;
}

export type HeldSelectAnalysis = { ok: true; claim: HeldSelect } | { ok: false; error: AnalyzeError };

/** The SELECT … \gset of a claim held for the whole job, analyzed, or why the lab cannot play it (one line). */
export function analyzeHeldSelect(parser: Parser, text: string, engineRefusals = true): HeldSelectAnalysis {
  const { metas } = lex(text);
  const other = metas.find((meta) => meta.name !== 'gset');
  if (other) return bad(`psql's \\${other.name}: the lab reads one psql command, \\gset (the SELECT's one row kept as variables)`);
  if (metas.length !== 1) {
    return bad(
      `--hold-for-job takes a claim file of one SELECT … \\gset (${metas.length} \\gset here): the job and its completion (--complete FILE) run in its transaction`,
    );
  }
  const meta = metas[0]!;
  if (!GSET_PREFIX.test(meta.args)) return badPrefix(meta.args);
  const after = parser.parse(text.slice(meta.end));
  if (!after.ok || (after.tree.stmts ?? []).length > 0) {
    return bad(
      '--hold-for-job: a statement after the \\gset: the claim is the SELECT alone, its transaction kept open for the job; the write that ends it goes in --complete FILE',
    );
  }
  const read = readSelect(parser, text, meta, CONTRACTS.claim.parameters, engineRefusals);
  if (!read.ok) return read;
  const { prefix, select, selected } = read;
  const run = selected.shape.columns.find((column) => column.runId);
  if (!run) {
    return refusedWith('gset-variable', 'the SELECT returns no run_id: the completion is given the run the SELECT found as :run_id');
  }
  return { ok: true, claim: { written: text, select, selectShape: selected.shape, variable: `${prefix}${run.name}`, runColumn: run.name } };
}
