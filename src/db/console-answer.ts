/**
 * How a console statement's answer reaches the page, the same from PGlite and from a live server: cells
 * as plain data, cut when long, and Postgres's own errors with the position mapped back into what the
 * learner typed.
 */
import type { ConsoleStatement } from '../sql/console';
import type { ConsoleAnswer, ConsoleValue } from './port';

/** Longer text values are cut (a result is sent to the page and drawn there). */
const MAX_TEXT = 2000;

/** A console cell as plain data for the page. */
export function consoleValue(value: unknown): ConsoleValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'bigint') text = value.toString();
  else if (value instanceof Date) text = value.toISOString();
  else if (value instanceof Uint8Array) text = `\\x${[...value].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  else text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text;
}

/**
 * Postgres's error as the console's answer, or null when the error is not Postgres's (the engine failing,
 * which the caller rethrows). `prefixLength`: characters the lab put before the learner's statement (a
 * cursor's DECLARE), taken off the error's position.
 */
export function consoleError(error: unknown, statement: ConsoleStatement, prefixLength: number, ms: number): Extract<ConsoleAnswer, { kind: 'error' }> | null {
  const e = error as { code?: unknown; message?: unknown; detail?: unknown; hint?: unknown; position?: unknown };
  if (typeof e.code !== 'string') return null;
  const raw = Number(e.position);
  const position = Number.isFinite(raw) && raw > 0 ? raw - (statement.cursor ? prefixLength : 0) : null;
  return {
    kind: 'error',
    code: e.code,
    message: String(e.message),
    detail: typeof e.detail === 'string' && e.detail ? e.detail : null,
    hint: typeof e.hint === 'string' && e.hint ? e.hint : null,
    position: position !== null && position > 0 && position <= statement.sql.length + 1 ? position : null,
    ms,
  };
}
