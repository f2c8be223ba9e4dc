/**
 * The isolation tester's output form (PostgreSQL 14 and later), so a run can be diffed with PostgreSQL's
 * expected/NAME.out: "Parsed test spec with N sessions", a blank line and "starting permutation: …" per
 * permutation, "step NAME: SQL" once a step completes (or "… <waiting ...>" when it waits, then
 * "step NAME: <... completed>"), each result as libpq's PQprint draws it with a header, aligned columns and
 * "|" between them, and an error as "SEVERITY:  primary message".
 */

/** One statement's rows, every value as the server's text (null for NULL). */
export interface ResultSet {
  columns: string[];
  rows: (string | null)[][];
}

/** What a step, a setup or a teardown gave back, in the order the server sent it (an error with its SQLSTATE, `code`). */
export type StepReply = { kind: 'rows'; result: ResultSet } | { kind: 'error'; severity: string; code: string; message: string };

/**
 * PQprint's test for a numeric column (right-aligned): every character a digit, '.', 'E', 'e', ' ' or '-',
 * the last one a digit, and not starting with E or e. One value that fails makes the whole column text.
 */
function looksNumeric(value: string): boolean {
  if (value === '') return true;
  if (!/^[0-9.Ee -]*$/.test(value)) return false;
  if (value[0] === 'E' || value[0] === 'e') return false;
  return /[0-9]$/.test(value);
}

/** Display width: one per character (the isolation specs' values are ASCII). */
const width = (text: string) => [...text].length;

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
}

/** A result set as the isolation tester prints it (PQprint with header, align and "|"), ending in a blank line. */
export function formatResultSet(result: ResultSet): string {
  const { columns, rows } = result;
  const text = rows.map((row) => row.map((value) => value ?? ''));
  const numeric = columns.map((_, j) => text.every((row) => looksNumeric(row[j]!)));
  const widths = columns.map((name, j) => Math.max(width(name), ...text.map((row) => width(row[j]!))));
  const lines: string[] = [];
  lines.push(columns.map((name, j) => pad(name, widths[j]!, numeric[j]!)).join('|'));
  lines.push(widths.map((w) => '-'.repeat(w)).join('+'));
  for (const row of text) lines.push(row.map((value, j) => pad(value, widths[j]!, numeric[j]!)).join('|'));
  lines.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
  lines.push('');
  return `${lines.join('\n')}\n`;
}

export function formatReplies(replies: readonly StepReply[]): string {
  return replies.map((reply) => (reply.kind === 'rows' ? formatResultSet(reply.result) : `${reply.severity}:  ${reply.message}\n`)).join('');
}

export const parsedLine = (sessions: number) => `Parsed test spec with ${sessions} sessions\n`;
export const permutationLine = (names: readonly string[]) => `\nstarting permutation: ${names.join(' ')}\n`;
export const stepLine = (name: string, sql: string) => `step ${name}: ${sql}\n`;
export const waitingLine = (name: string, sql: string) => `step ${name}: ${sql} <waiting ...>\n`;
export const completedLine = (name: string) => `step ${name}: <... completed>\n`;
/** A notice, as the isolation tester's notice processor prints it: the session, then libpq's text. */
export const noticeLine = (session: string, severity: string, message: string) => `${session}: ${severity}:  ${message}\n`;
