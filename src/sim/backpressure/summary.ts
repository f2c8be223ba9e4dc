/** Reading a lane's result: waiting times per tenant and the few numbers the page prints. */
import type { ClaimRecord, LaneResult, TickMetrics } from './types';

export interface WaitSummary {
  count: number;
  median: number;
  p95: number;
  max: number;
}

/** The q-quantile (0–1) of sorted numbers, nearest rank. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export function waitsByTenant(claims: readonly ClaimRecord[], tenantCount: number, upToSecond = Number.POSITIVE_INFINITY): number[][] {
  const waits: number[][] = Array.from({ length: tenantCount }, () => []);
  for (const claim of claims) if (claim.second <= upToSecond) waits[claim.tenant]?.push(claim.waitedSeconds);
  for (const list of waits) list.sort((a, b) => a - b);
  return waits;
}

export function summarizeWaits(sorted: readonly number[]): WaitSummary {
  return { count: sorted.length, median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) ?? 0 };
}

/** The tick at or before this second (ticks are one per second from 0). */
export function tickAt(lane: LaneResult, second: number): TickMetrics | undefined {
  if (lane.ticks.length === 0) return undefined;
  return lane.ticks[Math.max(0, Math.min(lane.ticks.length - 1, second))];
}

export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);
