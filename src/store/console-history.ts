/**
 * The console's history: the last statements run, newest first, kept in localStorage through the lab's
 * one persistence mechanism (persist/saved.ts), as a small store the composition root makes and the console
 * reads. Whatever is read back is checked (storage may be from another version, full, blocked or edited by hand).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { loadSaved, type SavedFormat, type StorageLike, saveSaved } from '../persist/saved';

export const HISTORY_KEY = 'lease-lab:console-history:v1';
export const HISTORY_LIMIT = 50;
/** Longer statements are still run, but not remembered. */
const MAX_REMEMBERED = 10_000;

/** The history as stored: a bare JSON array of statements, newest first (version 1 is in the key). */
const HISTORY_FORMAT: SavedFormat<string[]> = {
  key: HISTORY_KEY,
  version: 1,
  versionOf: (value) => (Array.isArray(value) ? 1 : null),
  decode(value) {
    const entries = (value as unknown[]).filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '' && entry.length <= MAX_REMEMBERED);
    return [...new Set(entries)].slice(0, HISTORY_LIMIT);
  },
  encode: (history) => history.slice(0, HISTORY_LIMIT),
};

export function loadHistory(storage: StorageLike | null): string[] {
  const loaded = loadSaved(storage, HISTORY_FORMAT);
  return loaded.kind === 'read' ? loaded.state : [];
}

/** The history with `sql` as its newest entry (moved there if it was already in it). */
export function remember(history: readonly string[], sql: string): string[] {
  if (sql.trim() === '' || sql.length > MAX_REMEMBERED) return [...history];
  return [sql, ...history.filter((entry) => entry !== sql)].slice(0, HISTORY_LIMIT);
}

/** Full or blocked storage: the history lasts until the page is closed. */
export function saveHistory(storage: StorageLike | null, history: readonly string[]): void {
  saveSaved(storage, HISTORY_FORMAT, [...history]);
}

export interface HistoryState {
  entries: string[];
  /** Makes `sql` the newest entry and saves the history. */
  remember(sql: string): void;
}

export type HistoryStore = StoreApi<HistoryState>;

export function createHistoryStore(storage: StorageLike | null): HistoryStore {
  return createStore<HistoryState>()((set, get) => ({
    entries: loadHistory(storage),
    remember(sql) {
      const entries = remember(get().entries, sql);
      set({ entries });
      saveHistory(storage, entries);
    },
  }));
}
