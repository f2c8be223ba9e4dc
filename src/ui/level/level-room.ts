/**
 * The room a level's banner took when last drawn, kept in localStorage beside the learner's progress. The
 * level in play is part of that progress, whose store (and the banner's code) come after the lab has
 * started (LevelSlot.tsx); a reload during a level reserves this room from the first paint, so the banner
 * takes its place then instead of pushing the timeline down. Kept while a banner is on screen, dropped
 * when the level is left. Only a size: the progress stays the one record of which level is in play.
 */

const LEVEL_ROOM_KEY = 'lease-lab:level-room:v1';

export interface LevelRoom {
  level: string;
  /** The banner's height in CSS pixels. */
  height: number;
  /** Whether its goal was open (a phone shows it closed until asked): the banner reopens as it was, at the same height. */
  open: boolean;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function isRoom(value: unknown): value is LevelRoom {
  const room = value as Partial<LevelRoom> | null;
  return (
    typeof room === 'object' &&
    room !== null &&
    typeof room.level === 'string' &&
    typeof room.height === 'number' &&
    Number.isFinite(room.height) &&
    room.height > 0 &&
    typeof room.open === 'boolean'
  );
}

/** The room kept by the last banner drawn, or null (none on screen then, or nothing kept). */
export function readLevelRoom(): LevelRoom | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(LEVEL_ROOM_KEY) ?? 'null');
    return isRoom(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the room a banner takes now, or (null) forgets it. A storage that refuses only costs the reserved room. */
export function keepLevelRoom(room: LevelRoom | null): void {
  try {
    if (room === null) storage()?.removeItem(LEVEL_ROOM_KEY);
    else storage()?.setItem(LEVEL_ROOM_KEY, JSON.stringify(room));
  } catch {}
}
