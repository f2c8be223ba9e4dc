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
import { refusal } from './refusals';

/** The parameter the UPDATE gets the run's id as: the claim's own two come first. */
const RUN_PARAMETER: Parameter = { number: 3, name: 'run (the \\gset variable)', type: 'integer' };

const GSET_CLAIM_PARAMETERS: readonly Parameter[] = [...CONTRACTS.claim.parameters, RUN_PARAMETER];

export interface GsetClaim {
  /** The claim as written, psql's form (the page's link and editor give it back as the learner typed it). */
  written: string;
  /** The SELECT as the file has it, without the \gset. */
  select: string;
  selectShape: GsetSelectShape;
  /** The UPDATE with each `:name` bound as $3, as the lab sends it. */
  update: string;
  updateShape: Shape;
  /** The variable the UPDATE uses (with the \gset's prefix), set from the SELECT's run_id. */
  variable: string;
  /** The SELECT's column that variable comes from (run_id, or its alias). */
  runColumn: string;
}

export type GsetAnalysis = { ok: true; claim: GsetClaim } | { ok: false; error: AnalyzeError };

interface Lexed {
  /** psql's backslash commands outside quotes: where each begins and where its line ends. */
  metas: { start: number; end: number; name: string; args: string }[];
  /** `:name` outside quotes (a `::` cast excluded); `quoted` for :'name' and :"name", which paste text. */
  variables: { start: number; end: number; name: string; quoted: boolean }[];
  /** The highest $n outside quotes. */
  highestParameter: number;
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT = /[A-Za-z0-9_\u0080-\uffff]/;

/** psql's view of the text: where its backslash commands and variables are (quotes and comments skipped). */
function lex(text: string): Lexed {
  const metas: Lexed['metas'] = [];
  const variables: Lexed['variables'] = [];
  let highestParameter = 0;
  let i = 0;
  const skipTo = (close: string, from: number) => {
    const at = text.indexOf(close, from);
    return at < 0 ? text.length : at + close.length;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1] ?? '';
    if (c === '-' && next === '-') {
      i = skipTo('\n', i);
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        const step = text.startsWith('/*', i) ? 1 : text.startsWith('*/', i) ? -1 : 0;
        depth += step;
        i += step === 0 ? 1 : 2;
      }
    } else if (c === "'") {
      const escapes = /[Ee]/.test(text[i - 1] ?? '') && !IDENT.test(text[i - 2] ?? '');
      i += 1;
      while (i < text.length) {
        if (escapes && text[i] === '\\') i += 2;
        else if (text[i] === "'" && text[i + 1] === "'") i += 2;
        else if (text[i] === "'") break;
        else i += 1;
      }
      i += 1;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) i += text[i] === '"' ? 2 : 1;
      i += 1;
    } else if (c === '$' && /[0-9]/.test(next) && !IDENT.test(text[i - 1] ?? '')) {
      let j = i + 1;
      while (/[0-9]/.test(text[j] ?? '')) j += 1;
      highestParameter = Math.max(highestParameter, Number(text.slice(i + 1, j)));
      i = j;
    } else if (c === '$' && !IDENT.test(text[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i));
      i = tag ? skipTo(tag[0], i + tag[0].length) : i + 1;
    } else if (c === '\\') {
      const end = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
      const line = text.slice(i + 1, end);
      const name = /^[A-Za-z_!?]*/.exec(line)![0];
      metas.push({ start: i, end, name, args: line.slice(name.length).trim() });
      i = end;
    } else if (c === ':' && next === ':') {
      i += 2;
    } else if (c === ':' && (next === "'" || next === '"')) {
      const close = text.indexOf(next, i + 2);
      const name = close < 0 ? '' : text.slice(i + 2, close);
      variables.push({ start: i, end: close < 0 ? text.length : close + 1, name, quoted: true });
      i = close < 0 ? text.length : close + 1;
    } else if (c === ':' && IDENT_START.test(next)) {
      let j = i + 1;
      while (IDENT.test(text[j] ?? '')) j += 1;
      variables.push({ start: i, end: j, name: text.slice(i + 1, j), quoted: false });
      i = j;
    } else {
      i += 1;
    }
  }
  return { metas, variables, highestParameter };
}

const bad = (message: string): GsetAnalysis => ({ ok: false, error: { kind: 'invalid', message } });
const refusedWith = (id: Parameters<typeof refusal>[0], detail: string): GsetAnalysis => {
  const why = refusal(id, detail);
  return { ok: false, error: { kind: 'refused', refusal: why, message: why.reason } };
};

/** Whether the file is a two-statement claim (it has a psql backslash command): then analyzeGsetClaim reads it. */
export function isGsetClaim(text: string): boolean {
  return lex(text).metas.length > 0;
}

/**
 * The two statements of a claim file with a \gset, each analyzed, or why the lab cannot play it (one line).
 * `engineRefusals` false (a check on a real server) keeps what only PGlite cannot replay.
 */
export function analyzeGsetClaim(parser: Parser, text: string, engineRefusals = true): GsetAnalysis {
  const { metas } = lex(text);
  const other = metas.find((meta) => meta.name !== 'gset');
  if (other) return bad(`psql's \\${other.name}: the lab reads one psql command, \\gset (the SELECT's one row kept as variables)`);
  if (metas.length > 1) {
    return refusedWith('several-statements', `${metas.length} \\gset: the lab plays a SELECT … \\gset and then one UPDATE that uses it, two statements in all`);
  }
  const meta = metas[0]!;
  const prefix = meta.args;
  if (!/^([A-Za-z_][A-Za-z0-9_]*)?$/.test(prefix)) return bad(`\\gset ${prefix}: the lab takes \\gset alone or with one prefix for the variables' names`);
  const select = text.slice(0, meta.start).trim().replace(/;$/, '');
  const rest = text.slice(meta.end);
  const selected = analyzeGsetSelect(parser, select, CONTRACTS.claim.parameters, engineRefusals);
  const selectStart = meta.start - text.slice(0, meta.start).trimStart().length;
  if (!selected.ok) return { ok: false, error: placed(selected.error, text, (cursor) => selectStart + cursor) };
  const nothing = parser.parse(rest);
  if (nothing.ok && (nothing.tree.stmts ?? []).length === 0) {
    return bad("\\gset with no statement after it: the SELECT's answer feeds nothing (write the UPDATE … WHERE run_id = :run_id after it)");
  }
  const bound = bind(rest, prefix, selected.shape);
  if (!bound.ok) return bound.error;
  const after = parser.parse(bound.text);
  const count = after.ok ? (after.tree.stmts ?? []).length : 1;
  if (count > 1) return refusedWith('several-statements', `${count + 1} statements: the lab plays a SELECT … \\gset and then one UPDATE that uses it`);
  const analyzed = analyzeWith(parser, bound.text, 'claim', { engineRefusals, parameters: GSET_CLAIM_PARAMETERS });
  if (!analyzed.ok) return { ok: false, error: placed(analyzed.error, text, (cursor) => meta.end + restIndex(rest, cursor)) };
  return {
    ok: true,
    claim: {
      written: text,
      select,
      selectShape: selected.shape,
      update: bound.text,
      updateShape: analyzed.shape,
      variable: bound.variable,
      runColumn: bound.variable.slice(prefix.length),
    },
  };
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

/** Where a cursor into the UPDATE as sent (trimmed, each `:name` as $3) is in the text after the \gset. */
function restIndex(rest: string, cursor: number): number {
  let at = cursor + rest.length - rest.trimStart().length;
  for (const found of lex(rest).variables) {
    if (at < found.start + RUN_PARAMETER_TEXT.length) break;
    at += found.end - found.start - RUN_PARAMETER_TEXT.length;
  }
  return at;
}

const RUN_PARAMETER_TEXT = `$${RUN_PARAMETER.number}`;

/** The UPDATE with each `:name` the \gset set from run_id bound as $3; or why not. */
function bind(
  rest: string,
  prefix: string,
  shape: { columns: GsetSelectShape['columns'] },
): { ok: true; text: string; variable: string } | { ok: false; error: GsetAnalysis } {
  const lexed = lex(rest);
  const set = new Map(shape.columns.map((column) => [`${prefix}${column.name}`, column.runId]));
  const setNames = [...set.keys()].map((name) => `:${name}`).join(', ') || 'nothing';
  if (lexed.highestParameter >= RUN_PARAMETER.number) {
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
    text += `${rest.slice(at, found.start)}$${RUN_PARAMETER.number}`;
    at = found.end;
  }
  text += rest.slice(at);
  return { ok: true, text: text.trim(), variable };
}
