/**
 * The editor's statements, kept in the browser (persist/saved.ts) as the learner types, so a reload brings
 * back what they were writing even before they applied it. Stored: { version: 1, claim, heartbeat, work,
 * complete, reaper?, params? } (a write null: the lab's own file; a reaper absent or null: none of the learner's).
 */
import { loadSaved, type SavedFormat, saveSaved, type StorageLike } from '../persist/saved';
import { checkTexts, type YourSqlTexts } from './your-sql';

export const DRAFT_KEY = 'lease-lab:your-sql:v1';
const DRAFT_VERSION = 1;

const DRAFT_FORMAT: SavedFormat<YourSqlTexts> = {
  key: DRAFT_KEY,
  version: DRAFT_VERSION,
  versionOf(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const version = (value as Record<string, unknown>).version;
    return typeof version === 'number' ? version : undefined;
  },
  decode(value) {
    const texts = checkTexts(value);
    if (!texts) throw new Error('not a draft');
    return texts;
  },
  encode: (texts) => ({ version: DRAFT_VERSION, ...texts }),
};

export type LoadedDraft =
  | { kind: 'none' }
  | { kind: 'read'; texts: YourSqlTexts }
  /** Damaged, or from a lab this one cannot read: the editor starts from the current strategy, and says so. */
  | { kind: 'unreadable'; why: string }
  /** A newer lab's draft: read as far as possible, never written over. */
  | { kind: 'newer'; texts: YourSqlTexts | null };

export function loadDraft(storage: StorageLike | null): LoadedDraft {
  const loaded = loadSaved(storage, DRAFT_FORMAT);
  switch (loaded.kind) {
    case 'none':
    case 'blocked':
      return { kind: 'none' };
    case 'read':
      return { kind: 'read', texts: loaded.state };
    case 'newer':
      return { kind: 'newer', texts: checkTexts(loaded.value) };
    case 'older':
      return { kind: 'unreadable', why: 'it was saved by an older version of Lease Lab in a form this one cannot read' };
    case 'unreadable':
      return { kind: 'unreadable', why: 'the stored draft is damaged' };
  }
}

/** False when the browser refused (no storage, full or blocked). */
export function saveDraft(storage: StorageLike | null, texts: YourSqlTexts): boolean {
  return saveSaved(storage, DRAFT_FORMAT, texts).ok;
}
