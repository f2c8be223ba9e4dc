/**
 * A row's record text as PostgreSQL's record_out writes it, back into its column texts: `(1,"a ""b""",,x)`
 * is ["1", 'a "b"', null, "x"]. An unquoted empty field is NULL; a quoted one is text, with `""` standing
 * for `"` and a backslash escaping the character after it. `columns`: how many the record has. The live console fetches rows this way so the
 * server can measure each one before sending it (src/sql/bridge/console-sized-declare.sql).
 */
export function parseRecordText(text: string, columns: number): (string | null)[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw new Error(`not a record's text: ${text.slice(0, 40)}`);
  const body = text.slice(1, -1);
  // record_out writes both a record of no columns and one of a single NULL as "()".
  if (body === '') return columns === 0 ? [] : [null];
  const fields: (string | null)[] = [];
  let i = 0;
  for (;;) {
    const parts: string[] = [];
    let quoted = false;
    while (i < body.length && body[i] !== ',') {
      if (body[i] === '"') {
        quoted = true;
        i = readQuoted(body, i + 1, parts);
      } else if (body[i] === '\\') {
        parts.push(body[i + 1] ?? '');
        i += 2;
      } else {
        const next = nextOf(body, i, /[,"\\]/g);
        parts.push(body.slice(i, next));
        i = next;
      }
    }
    const value = parts.join('');
    fields.push(!quoted && value === '' ? null : value);
    if (i >= body.length) return fields;
    i++;
  }
}

/** From just after an opening quote: appends the quoted text to `parts`, returns the index after the closing quote. */
function readQuoted(body: string, from: number, parts: string[]): number {
  let i = from;
  for (;;) {
    const next = nextOf(body, i, /["\\]/g);
    if (next >= body.length) throw new Error("unterminated quote in a record's text");
    parts.push(body.slice(i, next));
    if (body[next] === '\\') {
      parts.push(body[next + 1] ?? '');
      i = next + 2;
    } else if (body[next + 1] === '"') {
      parts.push('"');
      i = next + 2;
    } else return next + 1;
  }
}

/** The index of the next character matching `pattern` (a global regex) from `from`, or the length. */
function nextOf(text: string, from: number, pattern: RegExp): number {
  pattern.lastIndex = from;
  const found = pattern.exec(text);
  return found ? found.index : text.length;
}
