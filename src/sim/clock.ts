/**
 * The virtual clock: whole seconds since the start of every scenario. The database sees it through
 * sim.now(); nothing in the simulation reads the wall clock.
 */

/** 2030-01-01 15:00:00 UTC: second 0 of every scenario. */
const EPOCH_MS = Date.UTC(2030, 0, 1, 15, 0, 0);

/** The instant `seconds` after the epoch, as the ISO text Postgres is given and adapters return. */
export function clockIso(seconds: number): string {
  return new Date(EPOCH_MS + seconds * 1000).toISOString();
}

/** Seconds since the epoch for an ISO timestamp, or null. */
export function secondsOf(iso: string | null): number | null {
  if (iso === null) return null;
  return Math.round((Date.parse(iso) - EPOCH_MS) / 1000);
}

/** "15:01:30": how the lab shows a moment. */
export function clockLabel(seconds: number): string {
  return clockIso(seconds).slice(11, 19);
}
