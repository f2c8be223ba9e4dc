/**
 * The one way the lab keeps something in the browser's storage: the learner's place and preferences
 * (store/persist.ts), the lesson's progress (lessons/progress.ts, store/progress-store.ts) and the console's
 * history (store/console-history.ts). Each is a SavedFormat: a key, the version this code writes, how to
 * tell the version of what is stored, migrations from older versions, and how to check and write the value.
 * Storage may be missing, blocked, full, from another version of the lab or edited by hand; nothing here
 * throws, and what could not be read is handed back as text so the caller can keep it aside.
 *
 * Why not zustand's persist middleware: it writes the store back as soon as it has migrated it and calls
 * its migrate for a newer version too, so a record from a newer lab (which must stay read-only) would be
 * overwritten; a storage error in its setItem throws into whoever set the state; and today's saved forms
 * (a bare array, versions inside the value or none) would need a storage adapter anyway. The versions,
 * the migrations and the guards are the same idea, in one small place that keeps those promises.
 */

/** Some browsers throw on any storage access (blocked cookies); the lab then simply does not remember. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Brings a stored value from the version it is keyed by to the next one. */
export type Migration = (value: Record<string, unknown>) => unknown;

export interface SavedFormat<T> {
  key: string;
  /** The version this code reads and writes. */
  version: number;
  /** The version of a stored value (parsed JSON), or null when it is not a value of this format at all. */
  versionOf(value: unknown): number | null | undefined;
  /** Keyed by the version they read; each returns a value of the next version. */
  migrations?: Readonly<Record<number, Migration>>;
  /** A value of the current version to the state; checks everything (storage is untrusted). May throw: the value is then unreadable. */
  decode(value: unknown): T;
  /** The state to the value stored (JSON-serialisable). */
  encode(state: T): unknown;
}

export type Parsed<T> =
  | { kind: 'none' }
  | { kind: 'read'; state: T; migrated: boolean; text: string }
  /** Written by a newer version of the lab: `value` as stored, to read as far as this code can, and never to write over. */
  | { kind: 'newer'; version: number; value: unknown; text: string }
  /** An older version no migration reads (or no version at all). */
  | { kind: 'older'; text: string }
  /** Not JSON, not this format, or a value that did not check. */
  | { kind: 'unreadable'; text: string };

export type Loaded<T> = Parsed<T> | { kind: 'blocked' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads stored text (null: nothing stored) by `format`, through its migrations. Never throws. */
export function parseSaved<T>(text: string | null, format: SavedFormat<T>): Parsed<T> {
  if (text === null) return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', text };
  }
  try {
    let version = format.versionOf(value);
    if (version === null) return { kind: 'unreadable', text };
    let migrated = false;
    while (typeof version === 'number' && version < format.version && format.migrations?.[version]) {
      if (!isRecord(value)) return { kind: 'unreadable', text };
      value = format.migrations[version]!(value);
      version = format.versionOf(value);
      if (version === null) return { kind: 'unreadable', text };
      migrated = true;
    }
    if (typeof version === 'number' && version > format.version) return { kind: 'newer', version, value, text };
    if (version !== format.version) return { kind: 'older', text };
    return { kind: 'read', state: format.decode(value), migrated, text };
  } catch {
    // A value that did not check, or a migration that could not make sense of it.
    return { kind: 'unreadable', text };
  }
}

/** Reads `format`'s key from storage ('blocked': the browser refused to let us read). Never throws. */
export function loadSaved<T>(storage: StorageLike | null, format: SavedFormat<T>): Loaded<T> {
  if (!storage) return { kind: 'blocked' };
  let text: string | null;
  try {
    text = storage.getItem(format.key);
  } catch {
    return { kind: 'blocked' };
  }
  return parseSaved(text, format);
}

/** The text `format` stores for `state`. */
export function serializeSaved<T>(format: SavedFormat<T>, state: T): string {
  return JSON.stringify(format.encode(state));
}

/** Writes `state`; returns the error when there is no storage or the browser refused (full, blocked). */
export function saveSaved<T>(storage: StorageLike | null, format: SavedFormat<T>, state: T): { ok: true } | { ok: false; error: unknown } {
  if (!storage) return { ok: false, error: new Error('no storage') };
  try {
    storage.setItem(format.key, serializeSaved(format, state));
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Removes `key`; false when the browser refused. */
export function forgetSaved(storage: StorageLike | null, key: string): boolean {
  try {
    storage?.removeItem(key);
    return true;
  } catch {
    return false;
  }
}
