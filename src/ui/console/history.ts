/**
 * The console's history: the last statements run, newest first, kept in localStorage. Whatever is read
 * back is checked (storage may be from another version, full, blocked or edited by hand).
 */
import type { StorageLike } from '../../store/persist';

export const HISTORY_KEY = 'lease-lab:console-history:v1';
export const HISTORY_LIMIT = 50;
/** Longer statements are still run, but not remembered. */
const MAX_REMEMBERED = 10_000;

export function loadHistory(storage: StorageLike | null): string[] {
  let text: string | null;
  try {
    text = storage?.getItem(HISTORY_KEY) ?? null;
  } catch {
    return [];
  }
  if (text === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const entries = parsed.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '' && entry.length <= MAX_REMEMBERED);
  return [...new Set(entries)].slice(0, HISTORY_LIMIT);
}

/** The history with `sql` as its newest entry (moved there if it was already in it). */
export function remember(history: readonly string[], sql: string): string[] {
  if (sql.trim() === '' || sql.length > MAX_REMEMBERED) return [...history];
  return [sql, ...history.filter((entry) => entry !== sql)].slice(0, HISTORY_LIMIT);
}

export function saveHistory(storage: StorageLike | null, history: readonly string[]): void {
  try {
    storage?.setItem(HISTORY_KEY, JSON.stringify(history.slice(0, HISTORY_LIMIT)));
  } catch {
    // Full or blocked storage: the history lasts until the page is closed.
  }
}

/** localStorage, or null where the browser blocks it. */
export function browserStorage(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
