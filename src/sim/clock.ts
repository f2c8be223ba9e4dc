/**
 * The virtual clock: whole seconds since the start of every scenario. The database sees it through
 * sim.now(); nothing in the simulation reads the wall clock.
 */
import type { RunRow } from './types';

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

/**
 * For each running run with a lease, the first second of the clock at which that lease has run out: one
 * second after its expiry instant, since the claims take a run back when lease_expires_at < now(). The one
 * rule for "the next expiry", read by the engine (when the clock moves on by itself) and the page (the
 * clock's "to expiry" move). A time the clock cannot show (infinity) gives no second.
 */
export function leaseRunsOutAt(runs: readonly Pick<RunRow, 'status' | 'lease_expires_at'>[]): number[] {
  return runs
    .filter((run) => run.status === 'running' && run.lease_expires_at !== null)
    .map((run) => (secondsOf(run.lease_expires_at) ?? Number.NaN) + 1)
    .filter((at) => Number.isFinite(at));
}

/**
 * What the drivers' parsed time becomes when JavaScript's Date cannot hold it (PostgreSQL's years past
 * 275,760, up to 294276): kept as this text so the trace says so instead of failing to be written.
 */
export const OUT_OF_RANGE_TIME = 'after the year 275,760';

/**
 * Whether the clock can show this time: PostgreSQL also stores 'infinity', '-infinity' and years up to
 * 294276, which JavaScript's dates (±275,760 years) cannot hold, so they have no second on this clock.
 */
export function isClockTime(iso: string | null): boolean {
  return iso === null || Number.isFinite(secondsOf(iso));
}

/** "15:01:30": how the lab shows a moment. */
export function clockLabel(seconds: number): string {
  return clockIso(seconds).slice(11, 19);
}

const DURATION_UNITS: readonly { seconds: number; short: string; long: string }[] = [
  { seconds: 3600, short: 'h', long: 'hour' },
  { seconds: 60, short: 'min', long: 'minute' },
  { seconds: 1, short: 's', long: 's' },
];

/** Below this, a short duration is said in seconds: the lab's leases and pauses are thought of in seconds. */
const SECONDS_ONLY_BELOW = 600;

/**
 * A length of time as the lab says it everywhere: "40 s", "364 s", "3 h", "1 h 1 s", "12 min 30 s" (short:
 * seconds alone below ten minutes), or with hours and minutes spelled out for prose: "4 hours",
 * "4 minutes 30 s" (long). Rounded to whole seconds.
 */
export function durationLabel(seconds: number, style: 'short' | 'long' = 'short'): string {
  let rest = Math.round(Math.abs(seconds));
  if (rest === 0 || (style === 'short' && rest < SECONDS_ONLY_BELOW)) return `${seconds < 0 ? '−' : ''}${rest} s`;
  const parts: string[] = [];
  for (const unit of DURATION_UNITS) {
    const count = Math.floor(rest / unit.seconds);
    rest -= count * unit.seconds;
    if (count === 0) continue;
    const long = style === 'long' && unit.seconds > 1;
    parts.push(long ? `${count} ${unit.long}${count === 1 ? '' : 's'}` : `${count} ${unit.short}`);
  }
  return `${seconds < 0 ? '−' : ''}${parts.join(' ')}`;
}
