/**
 * The SQL console's rules, as pure functions of the learner's text: a small lexer (shared with the
 * editor's highlighting) and the check that decides what may reach Postgres.
 *
 * PGlite is one session, shared with the lab's workers, and a statement that waits for a lock there
 * never returns. So the console sends one statement at a time, inside `BEGIN READ ONLY … ROLLBACK`:
 * Postgres itself refuses writes and row locks there (SQLSTATE 25006). A few commands pass the read-only
 * check yet would end the console's transaction, outlive it, or wait for the workers' locks (LOCK,
 * CLUSTER, REINDEX); those are refused here, before anything is sent.
 */

type SqlTokenKind = 'keyword' | 'identifier' | 'string' | 'number' | 'parameter' | 'comment' | 'operator' | 'punctuation' | 'semicolon' | 'space';

export interface SqlToken {
  kind: SqlTokenKind;
  text: string;
  start: number;
  end: number;
}

/** Words highlighted as keywords. Any other word is an identifier (for the check, words are words). */
const KEYWORDS = new Set(
  `abort all alter analyze and any array as asc begin between by call case cast checkpoint close cluster
  collate commit copy create cross current_date current_time current_timestamp deallocate declare default
  delete desc discard distinct do drop else end except execute exists explain false fetch filter first for
  from full grant group having ilike in inner insert intersect interval into is join key last lateral left
  like limit listen load lock materialized merge move natural no not notify nowait null nulls of offset on
  only or order outer over partition prepare prepared recursive reindex release reset returning revoke right
  rollback rows savepoint select set share show skip some start table then to transaction true truncate
  union unlisten update using vacuum values when where window with`
    .split(/\s+/)
    .filter(Boolean),
);

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const OPERATOR_CHARS = '+-*/<>=~!@#%^&|`?:.';

// Sticky patterns, matched at a position: the lexer never copies the rest of the text, so it stays
// linear in the text's length (a slice per token made 40 KB of numbers quadratic).
const PARAMETER = /\$\d+/y;
const DOLLAR_TAG = /\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/y;
const NUMBER = /(?:0[xX][0-9A-Fa-f_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/y;

function matchAt(pattern: RegExp, text: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0] ?? null;
}

/**
 * Splits SQL text into tokens that cover it exactly (unterminated strings and comments run to the end).
 * One pass, no recursion: its work grows with the text's length only (nested parentheses are tokens).
 */
export function lexSql(text: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const push = (kind: SqlTokenKind, end: number) => {
    tokens.push({ kind, text: text.slice(i, end), start: i, end });
    i = end;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1] ?? '';
    if (/\s/.test(c)) {
      let end = i + 1;
      while (end < text.length && /\s/.test(text[end]!)) end++;
      push('space', end);
    } else if (c === '-' && next === '-') {
      // Postgres's scanner ends a -- comment at any line end: \n or \r.
      let newline = i + 2;
      while (newline < text.length && text[newline] !== '\n' && text[newline] !== '\r') newline++;
      push('comment', newline);
    } else if (c === '/' && next === '*') {
      push('comment', blockCommentEnd(text, i));
    } else if (c === "'") {
      push('string', quotedEnd(text, i, "'", false));
    } else if (c === '"') {
      push('identifier', quotedEnd(text, i, '"', false));
    } else if (c === '$') {
      const param = matchAt(PARAMETER, text, i);
      const tag = param ? null : matchAt(DOLLAR_TAG, text, i);
      if (param) push('parameter', i + param.length);
      else if (tag) {
        const close = text.indexOf(tag, i + tag.length);
        push('string', close < 0 ? text.length : close + tag.length);
      } else push('operator', i + 1);
    } else if (/\d/.test(c) || (c === '.' && /\d/.test(next))) {
      const number = matchAt(NUMBER, text, i);
      push('number', i + (number?.length ?? 1));
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      while (end < text.length && WORD_PART.test(text[end]!)) end++;
      const word = text.slice(i, end);
      // E'…' (backslash escapes), B'…', X'…', N'…' and U&'…' are string constants with a prefix.
      if (end === i + 1 && text[end] === "'" && /[eEbBxXnN]/.test(word)) push('string', quotedEnd(text, end, "'", /[eE]/.test(word)));
      else if (end === i + 1 && /[uU]/.test(word) && text[end] === '&' && (text[end + 1] === "'" || text[end + 1] === '"')) {
        const quote = text[end + 1]!;
        push(quote === "'" ? 'string' : 'identifier', quotedEnd(text, end + 1, quote, false));
      } else push(KEYWORDS.has(word.toLowerCase()) ? 'keyword' : 'identifier', end);
    } else if (c === ';') {
      push('semicolon', i + 1);
    } else if ('(),[]'.includes(c)) {
      push('punctuation', i + 1);
    } else if (OPERATOR_CHARS.includes(c)) {
      let end = i + 1;
      // An operator ends where a comment starts: "a=-1" is three tokens, "a=--x" is "a", "=" and a comment.
      while (end < text.length && OPERATOR_CHARS.includes(text[end]!) && !startsComment(text, end)) end++;
      push('operator', end);
    } else {
      push('operator', i + 1);
    }
  }
  return tokens;
}

function startsComment(text: string, at: number): boolean {
  return (text[at] === '-' && text[at + 1] === '-') || (text[at] === '/' && text[at + 1] === '*');
}

/** The editor highlights this much of the text; the rest is drawn plain (one text node). */
export const HIGHLIGHT_MAX_CHARS = 4_000;
/** …and at most this many tokens of it (a prefix of "((((…" is a token per character). */
const HIGHLIGHT_MAX_TOKENS = 1_000;

export interface HighlightedSql {
  tokens: SqlToken[];
  /** The text after the highlighted tokens, drawn as it is. */
  plain: string;
}

/**
 * What the editor draws: the first tokens of the text, then the rest as plain text. Lexes only the first
 * HIGHLIGHT_MAX_CHARS characters, so a keystroke in a 40 KB statement costs what one in 4 KB does.
 */
export function highlightSql(text: string): HighlightedSql {
  const lexed = lexSql(text.length > HIGHLIGHT_MAX_CHARS ? text.slice(0, HIGHLIGHT_MAX_CHARS) : text);
  const tokens = lexed.length > HIGHLIGHT_MAX_TOKENS ? lexed.slice(0, HIGHLIGHT_MAX_TOKENS) : lexed;
  // A token cut by the character cap is still right as far as it goes: the rest is plain.
  const end = tokens.at(-1)?.end ?? 0;
  return { tokens, plain: text.slice(end) };
}

/** The console refuses a longer statement, before lexing it (a claim or a catalog query is far shorter). */
export const MAX_CONSOLE_SQL_CHARS = 16_000;

/** The most rows a console answer carries from either database; the rest are counted, not sent. live-console-fetch.sql fetches this many. */
export const CONSOLE_ROWS_FETCHED = 1000;
/** The rows the page asks for and shows (at most CONSOLE_ROWS_FETCHED). */
export const CONSOLE_ROWS_SHOWN = 500;

/** The end of a quoted token starting at `start`; doubled quotes (and, for E'…', backslashes) escape. */
function quotedEnd(text: string, start: number, quote: string, backslash: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (backslash && c === '\\') i += 2;
    else if (c === quote && text[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return text.length;
}

/** Block comments nest in Postgres. */
function blockCommentEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (two === '/*') {
      depth++;
      i += 2;
    } else if (two === '*/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return text.length;
}

/** A statement the console may send. */
export interface ConsoleStatement {
  /** The learner's text up to the end of the one statement (trailing `;` and comments after it dropped). */
  sql: string;
  /** The first word, upper case: SELECT, WITH, EXPLAIN… */
  command: string;
  /**
   * True for a plain query (SELECT, WITH … SELECT, VALUES, TABLE): it runs as a cursor, so only the
   * rows shown leave Postgres and the rest are only counted.
   */
  cursor: boolean;
}

export type ConsoleCheck = ({ kind: 'ok' } & ConsoleStatement) | { kind: 'refused'; reason: string };

/** Queries the console runs. */
const QUERIES = new Set(['select', 'with', 'values', 'table', 'explain', 'show']);
/** Writes: sent, so that Postgres answers in its own words (25006, read-only transaction). */
const WRITES = new Set(['insert', 'update', 'delete', 'merge']);

const CONSOLE_ALLOWED =
  'The console runs one query at a time: SELECT, WITH, VALUES, TABLE, EXPLAIN or SHOW. INSERT, UPDATE, DELETE and MERGE are sent too, and Postgres refuses them: every statement runs in a read-only transaction.';

const TRANSACTION =
  'The console runs each statement in its own BEGIN READ ONLY … ROLLBACK. PGlite has one session, shared with the lab’s workers: a transaction you opened (or ended) there would take in their statements too.';

const REASONS: Record<string, string> = {
  begin: TRANSACTION,
  start: TRANSACTION,
  commit: TRANSACTION,
  end: TRANSACTION,
  rollback: TRANSACTION,
  abort: TRANSACTION,
  savepoint: TRANSACTION,
  release: TRANSACTION,
  lock: 'Locks belong to the workers. Inside PGlite a statement that waits for a lock never returns, and LOCK TABLE would wait for the workers’ open transactions. See who holds what with pg_locks and pg_prepared_xacts.',
  cluster: 'CLUSTER and REINDEX wait for the workers’ open transactions to end, and inside PGlite a wait never returns.',
  reindex: 'CLUSTER and REINDEX wait for the workers’ open transactions to end, and inside PGlite a wait never returns.',
  vacuum: 'Maintenance commands are not run from the console: the lab keeps the database as the scenario made it.',
  analyze: 'Maintenance commands are not run from the console: the lab keeps the database as the scenario made it.',
  analyse: 'Maintenance commands are not run from the console: the lab keeps the database as the scenario made it.',
  checkpoint: 'Maintenance commands are not run from the console: the lab keeps the database as the scenario made it.',
  set: 'Settings belong to the session the workers share. Each console statement is its own transaction, so a setting would not outlive it anyway (now() already reads the lab’s clock at this step).',
  reset:
    'Settings belong to the session the workers share. Each console statement is its own transaction, so a setting would not outlive it anyway (now() already reads the lab’s clock at this step).',
  discard: 'DISCARD would reset the session the lab’s workers share.',
  load: 'Loading libraries is not possible from the console.',
  listen:
    'LISTEN and NOTIFY are not run from the console: a transaction that used them cannot be parked with PREPARE TRANSACTION, which is how the lab keeps a worker’s claim open.',
  unlisten:
    'LISTEN and NOTIFY are not run from the console: a transaction that used them cannot be parked with PREPARE TRANSACTION, which is how the lab keeps a worker’s claim open.',
  notify:
    'LISTEN and NOTIFY are not run from the console: a transaction that used them cannot be parked with PREPARE TRANSACTION, which is how the lab keeps a worker’s claim open.',
  do: 'Code blocks (DO, CALL) are not run: they can take locks that the read-only transaction does not stop, and inside PGlite a lock wait never returns.',
  call: 'Code blocks (DO, CALL) are not run: they can take locks that the read-only transaction does not stop, and inside PGlite a lock wait never returns.',
  declare: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  fetch: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  move: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  close: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  execute: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  deallocate: 'Cursors and prepared statements would outlive the one statement the console runs. The console fetches the first rows for you.',
  copy: 'COPY reads and writes files; use SELECT to see the rows here.',
};

const SCHEMA = new Set(['create', 'drop', 'alter', 'truncate', 'comment', 'grant', 'revoke', 'refresh', 'security', 'import', 'reassign', 'cluster']);

/** Words that make a query unfit for a cursor; it then runs as it is and Postgres says why it cannot. */
const NOT_A_CURSOR = new Set(['insert', 'update', 'delete', 'merge', 'into', 'share']);

/** Decides whether the learner's text may be sent, and how. Nothing here touches a database. */
export function checkConsoleSql(text: string): ConsoleCheck {
  if (text.length > MAX_CONSOLE_SQL_CHARS) {
    return {
      kind: 'refused',
      reason: `That statement is ${text.length.toLocaleString('en')} characters long; the console runs statements of up to ${MAX_CONSOLE_SQL_CHARS.toLocaleString('en')} characters. Shorten it, e.g. by querying fewer columns or rows.`,
    };
  }
  const tokens = lexSql(text);
  const statements: SqlToken[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'semicolon') statements.push([]);
    else if (token.kind !== 'space' && token.kind !== 'comment') statements.at(-1)!.push(token);
  }
  const nonEmpty = statements.filter((s) => s.length > 0);
  if (nonEmpty.length === 0) return { kind: 'refused', reason: 'There is nothing to run yet: type a statement, e.g. SELECT * FROM runs.' };
  if (nonEmpty.length > 1) {
    return {
      kind: 'refused',
      reason:
        'One statement at a time, please: the console runs each statement in a transaction of its own. Remove everything after the first “;”, or run the statements one by one.',
    };
  }
  const words = nonEmpty[0]!;
  const first = words.find((t) => !(t.kind === 'punctuation' && t.text === '('));
  const command = first && (first.kind === 'keyword' || first.kind === 'identifier') && !first.text.startsWith('"') ? first.text.toLowerCase() : '';
  const second = words[words.indexOf(first!) + 1]?.text.toLowerCase();
  if (command === 'prepare' || (command === 'commit' && second === 'prepared') || (command === 'rollback' && second === 'prepared')) {
    return {
      kind: 'refused',
      reason:
        second === 'transaction' || second === 'prepared'
          ? 'Prepared transactions are the lab’s parked workers: PREPARE TRANSACTION, COMMIT PREPARED and ROLLBACK PREPARED belong to the simulation. Look at them with SELECT * FROM pg_prepared_xacts.'
          : REASONS.declare!,
    };
  }
  const reason = REASONS[command];
  if (reason) return { kind: 'refused', reason };
  if (SCHEMA.has(command)) {
    return {
      kind: 'refused',
      reason: `The console is read-only: ${command.toUpperCase()} would change the database the simulation runs on. ${CONSOLE_ALLOWED}`,
    };
  }
  if (!QUERIES.has(command) && !WRITES.has(command)) {
    return {
      kind: 'refused',
      reason: command
        ? `The console does not run ${command.toUpperCase()}. ${CONSOLE_ALLOWED}`
        : `That does not start like a statement the console runs. ${CONSOLE_ALLOWED}`,
    };
  }
  // The statement's own text: up to the semicolon that ends it (empty statements before it become spaces).
  const last = words.at(-1)!;
  const end = tokens.find((t) => t.kind === 'semicolon' && t.start >= last.end)?.start ?? text.length;
  const sql = tokens
    .filter((t) => t.end <= end)
    .map((t) => (t.kind === 'semicolon' ? ' ' : t.text))
    .join('');
  const plainQuery = ['select', 'values', 'table'].includes(command) || (command === 'with' && mainCommand(words) === 'select');
  const cursor = plainQuery && !words.some((t) => (t.kind === 'keyword' || t.kind === 'identifier') && NOT_A_CURSOR.has(t.text.toLowerCase()));
  return { kind: 'ok', sql, command: command.toUpperCase(), cursor };
}

/** The statement a WITH leads to: the first query or write word outside every parenthesis. */
function mainCommand(words: SqlToken[]): string | null {
  let depth = 0;
  for (const token of words.slice(1)) {
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    else if (depth === 0 && token.kind !== 'string') {
      const word = token.text.toLowerCase();
      if (['select', 'values', 'table', 'insert', 'update', 'delete', 'merge'].includes(word)) return word === 'values' || word === 'table' ? 'select' : word;
    }
  }
  return null;
}
