/**
 * psql's view of a claim file's text, just enough to find its `\gset` and the `:name` variables a later
 * statement uses, outside quotes, dollar quotes and comments (sql/analyze/gset.ts reads the statements with
 * PostgreSQL's parser). No parser here: the page reads it as the learner types, before the parser is fetched.
 */

export interface Lexed {
  /** psql's backslash commands outside quotes: where each begins and where its line ends. */
  metas: { start: number; end: number; name: string; args: string }[];
  /** `:name` outside quotes (a `::` cast excluded); `quoted` for :'name' and :"name", which paste text. */
  variables: { start: number; end: number; name: string; quoted: boolean }[];
  /** The highest $n outside quotes. */
  highestParameter: number;
  /** Each $n outside quotes, ascending, once. */
  parameters: number[];
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT = /[A-Za-z0-9_\u0080-\uffff]/;

/** psql's view of the text: where its backslash commands and variables are (quotes and comments skipped). */
export function lex(text: string): Lexed {
  const metas: Lexed['metas'] = [];
  const variables: Lexed['variables'] = [];
  let highestParameter = 0;
  const parameters = new Set<number>();
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
      parameters.add(Number(text.slice(i + 1, j)));
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
  return { metas, variables, highestParameter, parameters: [...parameters].sort((a, b) => a - b) };
}

/**
 * The parameter number the UPDATE gets the \gset's run id as: the first after the claim's own, so it never
 * takes a number the UPDATE already uses ($3 after $1 worker and $2 lease seconds; past the highest $n when
 * the UPDATE's own parameters are bound with --param).
 */
export function runParameterNumber(updateText: string, claimParameters: number): number {
  return Math.max(claimParameters, lex(updateText).highestParameter) + 1;
}

/**
 * A claim written as psql's `SELECT … \gset` then an UPDATE, read without the parser: the variable the UPDATE
 * uses (its first `:name`) and the parameter number the lab binds it as; null for text with no \gset or no
 * variable after it (the analysis says why such text is refused).
 */
export function gsetVariableOf(text: string, claimParameters: number): { variable: string; parameter: number } | null {
  const meta = lex(text).metas.find((found) => found.name === 'gset');
  if (!meta) return null;
  const rest = text.slice(meta.end);
  const used = lex(rest).variables.find((found) => !found.quoted);
  return used ? { variable: used.name, parameter: runParameterNumber(rest, claimParameters) } : null;
}

/** Whether the file is a two-statement claim (it has a psql backslash command): then sql/analyze/gset.ts reads it. */
export function isGsetClaim(text: string): boolean {
  return lex(text).metas.length > 0;
}

/** The $n a two-statement claim's SELECT and UPDATE use, ascending, once: the claim's one parameter list. */
export function gsetParametersWritten(text: string): number[] {
  return lex(text).parameters;
}

/**
 * The completion of a held job with its :name (the \gset's run id) bound as $1, the run parameter every write
 * takes first, never pasted as text; or why not, in one line. It is given nothing else: the claim wrote no
 * lease generation, and the result is the worker's own.
 */
export function bindHeldCompletion(text: string, variable: string): { ok: true; text: string } | { ok: false; message: string } {
  const lexed = lex(text);
  if (lexed.metas.length > 0) return { ok: false, message: `psql's \\${lexed.metas[0]!.name} in the completion: it is one statement` };
  if (lexed.highestParameter > 0) {
    return { ok: false, message: `the completion uses $${lexed.highestParameter}: with --hold-for-job it is given the run's id alone, as :${variable}` };
  }
  for (const found of lexed.variables) {
    if (found.quoted) return { ok: false, message: `:${text.slice(found.start + 1, found.end)} pastes the value as text; write :${found.name}` };
    if (found.name !== variable) return { ok: false, message: `:${found.name} is not set by the claim's \\gset, which sets :${variable} from the run's id` };
  }
  if (lexed.variables.length === 0)
    return { ok: false, message: `the completion does not use :${variable}: it must name the run the claim found (WHERE run_id = :${variable})` };
  let bound = '';
  let at = 0;
  for (const found of lexed.variables) {
    bound += `${text.slice(at, found.start)}$1`;
    at = found.end;
  }
  return { ok: true, text: `${bound}${text.slice(at)}`.trim() };
}
