/**
 * The learner's place, kept in localStorage so a reload without a link comes back to it. Anything read
 * back is checked like a link: storage can be stale (an older version) or edited by hand.
 */
import { type CheckedView, checkView, type View } from './view';

export const PLACE_KEY = 'lease-lab:place:v1';
/** Written into the saved place; a place without it is from the first release, which had the same shape. */
export const PLACE_VERSION = 1;
export const PREFS_KEY = 'lease-lab:prefs:v1';

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Prefs {
  theme: ThemeChoice;
  /** Steps per second while playing. */
  speed: number;
}

export const SPEEDS = [0.5, 1, 2, 4] as const;
export const DEFAULT_PREFS: Prefs = { theme: 'system', speed: 1 };

/** Some browsers throw on any storage access (blocked cookies); the lab then simply does not remember. */
export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** False when the place could not be saved (no storage, or the browser refused: full or blocked). */
export function savePlace(storage: StorageLike | null, view: View): boolean {
  if (!storage) return false;
  try {
    storage.setItem(PLACE_KEY, JSON.stringify({ version: PLACE_VERSION, scenario: view.scenarioId, ...view.settings, schedule: view.schedule, step: view.position }));
    return true;
  } catch {
    return false;
  }
}

/** null when nothing was saved; otherwise the checked place, with problems if it was damaged. */
export function loadPlace(storage: StorageLike | null): CheckedView | null {
  let text: string | null;
  try {
    text = storage?.getItem(PLACE_KEY) ?? null;
  } catch {
    return null;
  }
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    forget(storage);
    const fresh = checkView({ scenario: undefined });
    return { view: fresh.view, problems: ['Your saved place could not be read (the stored data is damaged), so the lab started afresh.'] };
  }
  const record = data as Record<string, unknown>;
  const version = record.version ?? PLACE_VERSION;
  if (version !== PLACE_VERSION || !('scenario' in record)) {
    forget(storage);
    const newer = typeof version === 'number' && version > PLACE_VERSION;
    const fresh = checkView({ scenario: undefined });
    return {
      view: fresh.view,
      problems: [`Your saved place was written by ${newer ? 'a newer' : 'an older'} version of Lease Lab in a form this one cannot read, so the lab started afresh.`],
    };
  }
  return checkView({ scenario: record.scenario, strategy: record.strategy, fencing: record.fencing, schedule: record.schedule, step: record.step ?? undefined });
}

function forget(storage: StorageLike | null): void {
  try {
    storage?.removeItem(PLACE_KEY);
  } catch {
    // Blocked storage: the damaged place stays, and is reported again next time.
  }
}

export function savePrefs(storage: StorageLike | null, prefs: Prefs): void {
  try {
    storage?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // ignore
  }
}

export function loadPrefs(storage: StorageLike | null): Prefs {
  try {
    const data = JSON.parse(storage?.getItem(PREFS_KEY) ?? 'null') as Partial<Prefs> | null;
    const theme = data?.theme === 'light' || data?.theme === 'dark' ? data.theme : 'system';
    const speed = SPEEDS.find((s) => s === data?.speed) ?? DEFAULT_PREFS.speed;
    return { theme, speed };
  } catch {
    return DEFAULT_PREFS;
  }
}
