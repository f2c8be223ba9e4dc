/**
 * The $n a statement's text uses, found by PostgreSQL's lexical rules alone (src/backend/parser/scan.l):
 * a `$3` inside a comment, a string constant, a quoted identifier, dollar-quoted text or an identifier
 * (`a$3`) is no parameter. Cheap and synchronous, for the page to decide what to show as the learner types;
 * what a statement really uses is the parser's to say (sql/analyze parametersUsed, loaded on the first Apply).
 * Text left open (an unterminated string or comment) hides what follows, as it does from the server.
 */

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_CONT = /[A-Za-z_0-9$\u0080-\uffff]/;
/** `$tag$` or `$$`, opening dollar-quoted text: a tag is an identifier without `$` (so `$1` opens none). */
const DOLLAR_TAG = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z_0-9\u0080-\uffff]*)?\$/;

/** The position after a quoted run opened at `open` and closed by `quote`, which doubled stands for itself; `\` escapes in E'…'. */
function skipQuoted(text: string, open: number, quote: string, backslashEscapes: boolean): number {
  let i = open + 1;
  while (i < text.length) {
    const c = text[i];
    if (backslashEscapes && c === '\\') i += 2;
    else if (c !== quote) i += 1;
    else if (text[i + 1] === quote) i += 2;
    else return i + 1;
  }
  return text.length;
}

/** The position after a block comment opened at `open`; block comments nest. */
function skipBlockComment(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return text.length;
}

/** Each $n the text uses as a parameter, in the order written (repeats kept). */
export function parametersWritten(text: string): number[] {
  const found: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (c === '/' && text[i + 1] === '*') i = skipBlockComment(text, i);
    else if (c === "'") i = skipQuoted(text, i, "'", false);
    else if (c === '"') i = skipQuoted(text, i, '"', false);
    else if ((c === 'E' || c === 'e') && text[i + 1] === "'") i = skipQuoted(text, i + 1, "'", true);
    else if (IDENT_START.test(c)) {
      // An identifier may hold "$" after its first character: `a$3` is a name, not a parameter.
      i += 1;
      while (i < text.length && IDENT_CONT.test(text[i]!)) i += 1;
    } else if (c === '$') {
      const parameter = /^\$(\d+)/.exec(text.slice(i, i + 12));
      const tag = parameter ? null : DOLLAR_TAG.exec(text.slice(i, i + 200));
      if (parameter) {
        found.push(Number(parameter[1]));
        i += parameter[0].length;
      } else if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        i = close === -1 ? text.length : close + tag[0].length;
      } else i += 1;
    } else if (/[0-9]/.test(c)) {
      // A number's digits (and any letters run into it) are not the start of a name or a parameter.
      i += 1;
      while (i < text.length && /[0-9A-Za-z_.]/.test(text[i]!)) i += 1;
    } else i += 1;
  }
  return found;
}
