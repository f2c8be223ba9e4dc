/**
 * The learner's place, kept in localStorage so a reload without a link comes back to it, and the
 * preferences, both through the lab's one persistence mechanism (persist/saved.ts). Anything read back is
 * checked like a link: storage can be stale (an older version) or edited by hand.
 */
import { forgetSaved, loadSaved, type SavedFormat, type StorageLike, saveSaved, serializeSaved } from '../persist/saved';
import { findScenario } from '../scenarios';
import { isAuthoredId, rememberAuthored, specOf } from '../scenarios/authored';
import { scenarioFromValue } from '../scenarios/link';
import { type CheckedView, checkView, type View } from './view';
import { checkTexts, yourSqlTextsOf } from './your-sql';

export const PLACE_KEY = 'lease-lab:place:v1';
/** Written into the saved place; a place without it is from the first release, which had the same shape. */
const PLACE_VERSION = 1;
const PREFS_KEY = 'lease-lab:prefs:v1';

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Prefs {
  theme: ThemeChoice;
  /** Steps per second while playing. */
  speed: number;
  /** "All controls" (the free lab) is on: every control shown, whatever the scenario needs (store/disclosure.ts). */
  allControls: boolean;
  /** The first visit's start card was dismissed or done: it does not come back. */
  startCardDone: boolean;
}

export const PLAYBACK_SPEEDS = [0.5, 1, 2, 4] as const;
export const DEFAULT_PREFS: Prefs = { theme: 'system', speed: 1, allControls: false, startCardDone: false };

export type { StorageLike };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The place as stored: { version, scenario, strategy, fencing, isolation?, schedule, step }. The first release wrote
 * no version (the same shape); a record without a scenario is of an older form this code cannot read.
 */
const PLACE_FORMAT: SavedFormat<CheckedView> = {
  key: PLACE_KEY,
  version: PLACE_VERSION,
  versionOf(value) {
    if (!isRecord(value)) return null;
    const version = value.version ?? PLACE_VERSION;
    if (version === PLACE_VERSION && !('scenario' in value)) return 0;
    return typeof version === 'number' ? version : undefined;
  },
  decode(value) {
    const record = value as Record<string, unknown>;
    // An authored scenario is saved with the place (as in a link), so a reload without a link finds it.
    if (record.authored !== undefined) {
      const authored = scenarioFromValue(record.authored, (why) => ({ scenario: null, problem: `The scenario you wrote could not be restored: ${why}.` }));
      if (authored.scenario) rememberAuthored(authored.scenario);
      else return { view: checkView({ scenario: undefined }).view, problems: [authored.problem] };
    }
    const checked = checkView({
      scenario: record.scenario,
      strategy: record.strategy,
      fencing: record.fencing,
      isolation: record.isolation,
      schedule: record.schedule,
      step: record.step ?? undefined,
    });
    // Added in place (older labs ignore it): the statements of "Your SQL", built again when the place opens.
    const yourSql = checkTexts(record.yourSql);
    return yourSql ? { ...checked, yourSql } : checked;
  },
  encode: ({ view }) => {
    const yourSql = yourSqlTextsOf(view.settings.definition);
    const { strategy, fencing, isolation } = view.settings;
    return {
      version: PLACE_VERSION,
      scenario: view.scenarioId,
      ...authoredOf(view.scenarioId),
      strategy,
      fencing,
      // Added in place (older labs ignore it and open the claim at READ COMMITTED): a recording's level.
      ...(isolation ? { isolation } : {}),
      schedule: view.schedule,
      step: view.position,
      ...(yourSql ? { yourSql } : {}),
    };
  },
};

/** The spec of an authored scenario, to be saved with the place; nothing for a built-in one. */
function authoredOf(scenarioId: string): { authored?: unknown } {
  const scenario = isAuthoredId(scenarioId) ? findScenario(scenarioId) : undefined;
  return scenario ? { authored: specOf(scenario) } : {};
}

/** The preferences as stored: { theme, speed, allControls, startCardDone } (older ones lack the last two); anything out of range reads as the default. */
const PREFS_FORMAT: SavedFormat<Prefs> = {
  key: PREFS_KEY,
  version: 1,
  versionOf: (value) => (isRecord(value) ? 1 : null),
  decode(value) {
    const data = value as Partial<Prefs>;
    const theme = data.theme === 'light' || data.theme === 'dark' ? data.theme : 'system';
    const speed = PLAYBACK_SPEEDS.find((s) => s === data.speed) ?? DEFAULT_PREFS.speed;
    return { theme, speed, allControls: data.allControls === true, startCardDone: data.startCardDone === true };
  },
  encode: (prefs) => ({ theme: prefs.theme, speed: prefs.speed, allControls: prefs.allControls, startCardDone: prefs.startCardDone }),
};

/** False when the place could not be saved (no storage, or the browser refused: full or blocked). */
export function savePlace(storage: StorageLike | null, view: View): boolean {
  return saveSaved(storage, PLACE_FORMAT, { view, problems: [] }).ok;
}

/** The saved place as stored (null: none, or storage refused). */
export function readPlaceText(storage: StorageLike | null): string | null {
  try {
    return storage?.getItem(PLACE_KEY) ?? null;
  } catch {
    return null;
  }
}

/**
 * A view failed to draw: if it is the saved place, the place saved before it (`before`, as stored) goes
 * back, or none, so a reload never opens a view that cannot be drawn. Never throws.
 */
export function unsavePlace(storage: StorageLike | null, broken: View, before: string | null): void {
  const stored = readPlaceText(storage);
  if (stored === null || stored !== serializeSaved(PLACE_FORMAT, { view: broken, problems: [] })) return;
  if (before === null || before === stored) {
    forgetSaved(storage, PLACE_KEY);
    return;
  }
  try {
    storage?.setItem(PLACE_KEY, before);
  } catch {
    forgetSaved(storage, PLACE_KEY);
  }
}

/** null when nothing was saved; otherwise the checked place, with problems if it was damaged. */
export function loadPlace(storage: StorageLike | null): CheckedView | null {
  const loaded = loadSaved(storage, PLACE_FORMAT);
  if (loaded.kind === 'blocked' || loaded.kind === 'none') return null;
  if (loaded.kind === 'read') return loaded.state;
  // Blocked storage: the unreadable place stays, and is reported again next time.
  forgetSaved(storage, PLACE_KEY);
  const fresh = checkView({ scenario: undefined });
  if (loaded.kind === 'unreadable')
    return { view: fresh.view, problems: ['Your saved place could not be read (the stored data is damaged), so the lab started afresh.'] };
  return {
    view: fresh.view,
    problems: [
      `Your saved place was written by ${loaded.kind === 'newer' ? 'a newer' : 'an older'} version of Lease Lab in a form this one cannot read, so the lab started afresh.`,
    ],
  };
}

export function savePrefs(storage: StorageLike | null, prefs: Prefs): void {
  saveSaved(storage, PREFS_FORMAT, prefs);
}

export function loadPrefs(storage: StorageLike | null): Prefs {
  const loaded = loadSaved(storage, PREFS_FORMAT);
  return loaded.kind === 'read' ? loaded.state : DEFAULT_PREFS;
}
