/** Messages the lab owes the learner: a link it could not open as written, a restart, steps it skipped. */
export type NoticeTone = 'info' | 'warning' | 'error';

export interface Notice {
  id: number;
  tone: NoticeTone;
  title: string;
  details: string[];
  /**
   * 'place': about the place the learner stands at (a step the lab refused there): one at a time, and gone once
   * the learner moves elsewhere or edits their SQL (lab-store.ts), so pressing Step there again shows it once.
   */
  tiedTo?: 'place';
}

/** Older notices beyond this many are dropped; the newest matter. */
export const MAX_NOTICES = 4;

/** "step 10 (A): A has finished (done)" lines, capped so a long list stays readable. */
export function listRefused(refused: readonly { index: number; token: string; reason: string }[], limit = 5): string[] {
  const lines = refused.slice(0, limit).map((r) => `Step ${r.index + 1} ("${r.token}"): ${r.reason}.`);
  if (refused.length > limit) lines.push(`…and ${refused.length - limit} more.`);
  return lines;
}
