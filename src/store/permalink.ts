/**
 * Views as URL fragments: `#scenario=race&strategy=naive&fencing=off&schedule=A,B,+30&step=3`.
 * Readable on purpose (an instructor can edit one by hand); decoded without trusting any of it.
 */
import { isBackpressureFragment } from './backpressure-link';
import { findScenario, SCENARIOS } from '../scenarios';
import { checkView, type CheckedView, quote, type RawView, type View } from './view';
import { isAuthoredId, rememberAuthored, specOf } from '../scenarios/authored';
import { type DecodedScenario, decodeScenarioParam, encodeSpec, SCENARIO_KEY } from '../scenarios/link';
import { MAX_SPEC_LINK_CHARS } from './spec-link';
import { yourSqlTextsOf } from './your-sql';
import { encodeYourSql, readYourSql, YOUR_SQL_KEYS, YOUR_SQL_STRATEGY } from './your-sql-link';

/**
 * Far longer than any real link (2000 steps of "pause:A" is ~16 000 characters, Your SQL at most 7,500),
 * with room for a spec's share (spec-link.ts) on top.
 */
export const MAX_LINK_CHARS = 24_000 + MAX_SPEC_LINK_CHARS;

const KEYS = ['scenario', 'strategy', 'fencing', 'isolation', 'schedule', 'step'] as const;

/** Leaves the characters schedules are made of readable; escapes everything else. */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2B/g, '+');
}

export function encodeView(view: View): string {
  const yourSql = yourSqlTextsOf(view.settings.definition);
  const parts = [
    `scenario=${encodeValue(view.scenarioId)}`,
    ...authoredPart(view.scenarioId),
    `strategy=${encodeValue(yourSql ? YOUR_SQL_STRATEGY : view.settings.strategy)}`,
    `fencing=${view.settings.fencing ? 'on' : 'off'}`,
    // Only a recording's view has one (the page runs everything else at READ COMMITTED).
    ...(view.settings.isolation ? [`isolation=${view.settings.isolation}`] : []),
    `schedule=${encodeValue(view.schedule.join(','))}`,
  ];
  if (view.position !== null) parts.push(`step=${view.position}`);
  // Your SQL travels last, after the short fields a reader looks for.
  if (yourSql) parts.push(encodeYourSql(yourSql));
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
  // The backpressure view has links of its own (store/backpressure-link.ts).
  if (isBackpressureFragment(text)) return null;
  if (text.length > MAX_LINK_CHARS) {
    const checked = checkView({});
    return {
      view: checked.view,
      problems: [`The link is ${text.length} characters long, far more than any schedule needs, so the lab ignored it and opened the first scenario.`],
    };
  }
  const raw: Record<string, string> = {};
  const yourSqlFields: Record<string, string> = {};
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
    if ((YOUR_SQL_KEYS as readonly string[]).includes(key)) yourSqlFields[key] = value;
  }
  const authored = authoredInLink(text);
  if (authored?.scenario) raw.scenario = authored.scenario.id;
  if (authored?.problem) problems.push(authored.problem);
  if (Object.keys(raw).length === 0) {
    problems.push(`The link has none of ${KEYS.join(', ')}, so the lab opened the first scenario.`);
    return { view: checkView({ scenario: undefined }).view, problems };
  }
  // Your SQL (see your-sql-link.ts): its statements are built when the view opens; strategy=your-sql is not a built-in id.
  const yourSql = readYourSql(yourSqlFields, raw.strategy, problems);
  if (raw.strategy === YOUR_SQL_STRATEGY) delete raw.strategy;
  const fields: RawView = { ...raw };
  const checked = checkView(fields);
  return { view: checked.view, problems: [...problems, ...checked.problems], ...(yourSql ? { yourSql } : {}) };
}

/** A place the learner already has, kept when a link cannot say which scenario to open. */
export interface KeptPlace {
  view: View;
  /** How the notice names it: the place on screen, or the one saved from an earlier visit. */
  kind: 'current' | 'saved';
}

/**
 * Like decodeView, but a link that cannot say which scenario to open (unknown or missing scenario, far too
 * long, unreadable) does not cost the learner their place: `keep` is opened instead, and the notice says
 * so. A link that names a real scenario opens it, with whatever else was wrong replaced and named.
 */
export function decodeLink(fragment: string, keep: KeptPlace | null): CheckedView | null {
  const decoded = decodeView(fragment);
  if (decoded === null || keep === null) return decoded;
  const why = whyNoScenario(fragment.startsWith('#') ? fragment.slice(1) : fragment);
  if (why === null) return decoded;
  const kept = keep.kind === 'current' ? 'You are still where you were.' : 'The lab opened your saved place instead.';
  return { view: keep.view, problems: [`${why} ${kept}`] };
}

/** Why a link names no scenario the lab has, in plain words; null when it names one. */
function whyNoScenario(text: string): string | null {
  if (text.length > MAX_LINK_CHARS) return `The link is ${text.length} characters long, far more than any schedule needs, so the lab ignored it.`;
  const authored = authoredInLink(text);
  if (authored) return authored.problem;
  let named: string | null = null;
  let unreadable = false;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (safeDecode(eq < 0 ? pair : pair.slice(0, eq)) !== 'scenario') continue;
    named = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    unreadable = named === null;
  }
  if (unreadable) return 'The scenario in the link is not properly encoded, so the lab could not read it.';
  if (named === null) return `The link names no scenario (it should start with "scenario=", e.g. scenario=${SCENARIOS[0]!.id}).`;
  if (findScenario(named)) return null;
  return `There is no scenario ${quote(named)}. The scenarios are: ${SCENARIOS.map((s) => s.id).join(', ')}.`;
}

// --- Authored scenarios (scenarios/authored.ts): the whole scenario travels in the link, as `sc=`. ---

/** The `sc=` part for an authored scenario's view; nothing for a built-in one. */
function authoredPart(scenarioId: string): string[] {
  const scenario = isAuthoredId(scenarioId) ? findScenario(scenarioId) : undefined;
  return scenario ? [`${SCENARIO_KEY}=${encodeSpec(specOf(scenario))}`] : [];
}

/**
 * The authored scenario a link carries (remembered, so the view can name it by id), or why it could not be
 * read; null when the link carries none. It stands for the link's `scenario=`, which only names it.
 */
function authoredInLink(text: string): DecodedScenario | null {
  let found: DecodedScenario | null = null;
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (safeDecode(eq < 0 ? pair : pair.slice(0, eq)) !== SCENARIO_KEY) continue;
    const value = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    found =
      value === null
        ? { scenario: null, problem: 'The scenario in the link is not properly encoded, so the lab could not read it.' }
        : decodeScenarioParam(value);
  }
  if (found?.scenario) rememberAuthored(found.scenario);
  return found;
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
