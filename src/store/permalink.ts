/**
 * Views as URL fragments: `#scenario=race&strategy=naive&fencing=off&schedule=A,B,+30&step=3`.
 * Readable on purpose (an instructor can edit one by hand); decoded without trusting any of it.
 */
import { checkView, type CheckedView, type RawView, type View } from './view';

/** Far longer than any real link (2000 steps of "pause:A" is ~16 000 characters). */
export const MAX_LINK_CHARS = 24_000;

const KEYS = ['scenario', 'strategy', 'fencing', 'schedule', 'step'] as const;

/** Leaves the characters schedules are made of readable; escapes everything else. */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2B/g, '+');
}

export function encodeView(view: View): string {
  const parts = [
    `scenario=${encodeValue(view.scenarioId)}`,
    `strategy=${encodeValue(view.settings.strategy)}`,
    `fencing=${view.settings.fencing ? 'on' : 'off'}`,
    `schedule=${encodeValue(view.schedule.join(','))}`,
  ];
  if (view.position !== null) parts.push(`step=${view.position}`);
  return parts.join('&');
}

/**
 * Reads a fragment (with or without its "#"). Returns null when there is no link at all. Percent-decoding
 * is done by hand so a "+" stays a "+" (it means "move the clock"), not a space.
 */
export function decodeView(fragment: string): CheckedView | null {
  const text = fragment.startsWith('#') ? fragment.slice(1) : fragment;
  if (text.trim() === '') return null;
  // The lesson's own links (#lesson/chapter/…) point into the lesson, not at a view of the lab.
  if (text.startsWith('lesson/')) return null;
  if (text.length > MAX_LINK_CHARS) {
    const checked = checkView({});
    return { view: checked.view, problems: [`The link is ${text.length} characters long, far more than any schedule needs, so the lab ignored it and opened the first scenario.`] };
  }
  const raw: Record<string, string> = {};
  const problems: string[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === null || value === null) {
      problems.push(`Part of the link is not properly encoded (${shorten(pair)}); the lab ignored that part.`);
      continue;
    }
    if ((KEYS as readonly string[]).includes(key)) raw[key] = value;
  }
  if (Object.keys(raw).length === 0) {
    problems.push(`The link has none of ${KEYS.join(', ')}, so the lab opened the first scenario.`);
    return { view: checkView({ scenario: undefined }).view, problems };
  }
  const fields: RawView = { ...raw };
  const checked = checkView(fields);
  return { view: checked.view, problems: [...problems, ...checked.problems] };
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function shorten(text: string): string {
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}
