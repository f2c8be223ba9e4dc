/**
 * The spec the learner is writing in "Your own schema", kept in the browser (persist/saved.ts) as they type,
 * so a reload brings it back before they ran it. Stored: { version: 1, text }. Written only when the
 * learner edits: a spec opened from a link is not stored until they change it (an embed stores nothing
 * before the learner acts: gated-storage.ts).
 */
import { loadSaved, type SavedFormat, saveSaved, type StorageLike } from '../persist/saved';

export const SPEC_DRAFT_KEY = 'lease-lab:your-spec:v1';
const SPEC_DRAFT_VERSION = 1;

const SPEC_DRAFT_FORMAT: SavedFormat<string> = {
  key: SPEC_DRAFT_KEY,
  version: SPEC_DRAFT_VERSION,
  versionOf(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const version = (value as Record<string, unknown>).version;
    return typeof version === 'number' ? version : undefined;
  },
  decode(value) {
    const text = (value as Record<string, unknown>).text;
    if (typeof text !== 'string') throw new Error('not a spec draft');
    return text;
  },
  encode: (text) => ({ version: SPEC_DRAFT_VERSION, text }),
};

export interface LoadedSpecDraft {
  /** The saved spec, or null (none, blocked, damaged, or a form this lab does not read: the example is shown). */
  text: string | null;
  /** Saved by a newer lab: shown as far as it reads, never written over (as the claim's draft, your-sql-draft.ts). */
  newer: boolean;
}

export function loadSpecDraft(storage: StorageLike | null): LoadedSpecDraft {
  const loaded = loadSaved(storage, SPEC_DRAFT_FORMAT);
  if (loaded.kind === 'read') return { text: loaded.state, newer: false };
  if (loaded.kind === 'newer') {
    const text = (loaded.value as Record<string, unknown> | null)?.text;
    return { text: typeof text === 'string' ? text : null, newer: true };
  }
  return { text: null, newer: false };
}

export function saveSpecDraft(storage: StorageLike | null, text: string): void {
  saveSaved(storage, SPEC_DRAFT_FORMAT, text);
}
