/**
 * Your SQL in a link: `strategy=your-sql&claim=…` and, for each write the learner wrote, `heartbeat=…`,
 * `work=…`, `complete=…`, and a reaper as `reaper=…` (the CLI's check prints links with `claim=` alone, which open the same way). The
 * statements are percent-encoded as they are, so a link stays readable; their share of the link is bounded.
 * Their own parameters, when bound, follow as `params=1=1,2=worker,3=lease` (sim/param-bindings.ts);
 * a link without `params=` opens as it always did.
 */
import { encodeBindings, PARAMS_KEY, readBinding, splitBindings } from '../sim/param-bindings';
import { WRITE_ROLES, type YourSqlTexts } from './your-sql';

/** The strategy= value that says "the statements in this link". */
export const YOUR_SQL_STRATEGY = 'your-sql';

export const YOUR_SQL_KEYS = ['claim', ...WRITE_ROLES, 'reaper', PARAMS_KEY] as const;

/**
 * The encoded statements may take this much of a link: with the longest schedule a link carries
 * (~16,000 characters) the whole stays under MAX_LINK_CHARS.
 */
export const MAX_YOUR_SQL_LINK_CHARS = 7_500;

function encodeStatement(text: string): string {
  return encodeURIComponent(text);
}

/** The link's part for the statements, without a leading "&". */
export function encodeYourSql(texts: YourSqlTexts): string {
  const parts = [`claim=${encodeStatement(texts.claim)}`];
  for (const role of WRITE_ROLES) {
    const text = texts[role];
    if (text !== null) parts.push(`${role}=${encodeStatement(text)}`);
  }
  if (texts.reaper != null) parts.push(`reaper=${encodeStatement(texts.reaper)}`);
  const params = texts.params ?? [];
  if (params.length > 0) parts.push(`${PARAMS_KEY}=${encodeBindings(params)}`);
  return parts.join('&');
}

/** How many characters the statements take in a link. */
function yourSqlLinkChars(texts: YourSqlTexts): number {
  return encodeYourSql(texts).length;
}

/** The message when statements are too long for a link, or null when they fit. */
export function tooLongForLink(texts: YourSqlTexts): string | null {
  const chars = yourSqlLinkChars(texts);
  if (chars <= MAX_YOUR_SQL_LINK_CHARS) return null;
  return `your statements take ${chars.toLocaleString('en')} characters in a link, more than the ${MAX_YOUR_SQL_LINK_CHARS.toLocaleString('en')} a link can carry; shorten them (comments, indentation and line breaks count)`;
}

/**
 * The statements of a link's decoded fields (`fields` holds only the keys above that were present), or
 * null when it carries none. Anything wrong is named in `problems` and the statements are left out.
 */
export function readYourSql(
  fields: Partial<Record<(typeof YOUR_SQL_KEYS)[number], string>>,
  strategy: string | undefined,
  problems: string[],
): YourSqlTexts | null {
  const present = YOUR_SQL_KEYS.filter((key) => fields[key] !== undefined);
  if (present.length === 0) {
    if (strategy === YOUR_SQL_STRATEGY)
      problems.push('The link chooses "Your SQL" but carries no claim= statement, so the lab used the scenario\'s own strategy.');
    return null;
  }
  const claim = fields.claim;
  if (claim === undefined || claim.trim() === '') {
    problems.push(
      `The link carries ${present.filter((key) => key !== 'claim').join(', ')} but no claim, so the lab ignored your SQL in it and used the scenario's own strategy.`,
    );
    return null;
  }
  const texts: YourSqlTexts = { claim, heartbeat: fields.heartbeat ?? null, work: fields.work ?? null, complete: fields.complete ?? null };
  if (fields.reaper !== undefined) texts.reaper = fields.reaper;
  const params = readBindings(fields.params, problems);
  if (params.length > 0) texts.params = params;
  const tooLong = tooLongForLink(texts);
  if (tooLong) {
    problems.push(`The link's SQL is too long: ${tooLong}. The lab ignored it.`);
    return null;
  }
  return texts;
}

/**
 * The link's bindings, or none with the reason in `problems` when they cannot be read: the statements still
 * open (and say, when they are played, what they lack). Each binding's own rules are applied when they are.
 */
function readBindings(value: string | undefined, problems: string[]): string[] {
  if (value === undefined) return [];
  const flags = splitBindings(value);
  const bad = flags === null ? value : flags.find((flag) => readBinding(flag).parts === null);
  if (flags === null || bad !== undefined) {
    problems.push(
      `The link's parameters (params=) could not be read at "${bad!.length > 40 ? `${bad!.slice(0, 40)}…` : bad}": each is N=VALUE, comma-separated (e.g. params=1=1,2=worker,3=lease). The lab left them out.`,
    );
    return [];
  }
  return flags;
}
