/**
 * From the store's lanes to what the charts draw: series per tenant, caps, a y range shared by both
 * lanes (so FIFO and fair can be compared by eye), and each tenant's waiting times up to the cursor.
 */
import type { ChartSpec, Series } from '../../charts/draw';
import type { TenantWaits } from '../../charts/WaitBoxes';
import type { LaneState } from '../../store/backpressure-store';
import { arrivalsFor } from '../../sim/backpressure/arrivals';
import type { BackpressureConfig, ClaimPolicy, TickMetrics } from '../../sim/backpressure/types';

type ChartId = 'queue' | 'active' | 'calls' | 'cost';

export interface ChartInfo {
  id: ChartId;
  title: string;
  spec: ChartSpec<TickMetrics>;
}

const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0);

function tenantColor(colors: readonly string[], index: number): string {
  return colors[index % colors.length] ?? '#0072b2';
}

/**
 * Cents as dollars. Without `stepCents`: whole dollars from $100 on, else cents. On an axis whose ticks are
 * `stepCents` apart (whole cents): whole dollars when the step is, else cents, so two ticks never read the same.
 */
export function dollars(cents: number, stepCents?: number): string {
  const whole = stepCents === undefined ? cents >= 10_000 : stepCents % 100 === 0;
  const decimals = whole ? 0 : 2;
  return `$${(cents / 100).toFixed(decimals)}`;
}

function maxOver(lanes: readonly LaneState[], value: (tick: TickMetrics) => number): number {
  let most = 0;
  for (const lane of lanes) for (const tick of lane.ticks) most = Math.max(most, value(tick));
  return most;
}

export function chartsFor(config: BackpressureConfig, lane: LaneState, both: readonly LaneState[], cursor: number, colors: readonly string[]): ChartInfo[] {
  const perTenant = (pick: (tick: TickMetrics) => readonly number[]): Series<TickMetrics>[] =>
    config.tenants.map((tenant, i) => ({ label: `Tenant ${tenant.id}`, color: tenantColor(colors, i), value: (tick) => pick(tick)[i] ?? 0 }));
  const upTo = Math.min(cursor, lane.ticks.length - 1);
  const callColor = colors[colors.length - 1] ?? '#56b4e9';
  const activeCaps = [
    ...(config.maxActivePerTenant === null ? [] : [{ value: config.maxActivePerTenant, label: `per-tenant limit ${config.maxActivePerTenant}` }]),
  ];
  return [
    {
      id: 'queue',
      title: 'Queue depth (runs waiting)',
      spec: {
        points: lane.ticks,
        series: perTenant((t) => t.pending),
        stacked: true,
        caps: [],
        yMax: maxOver(both, (t) => total(t.pending)),
        upTo,
        formatY: String,
        integer: true,
      },
    },
    {
      id: 'active',
      title: 'Active runs per tenant',
      spec: {
        points: lane.ticks,
        series: perTenant((t) => t.running),
        stacked: false,
        caps: activeCaps,
        yMax: Math.max(
          maxOver(both, (t) => Math.max(...t.running)),
          config.maxActivePerTenant ?? 0,
        ),
        upTo,
        formatY: String,
        integer: true,
      },
    },
    {
      id: 'calls',
      title: 'Model calls in flight',
      spec: {
        points: lane.ticks,
        series: [{ label: 'Calls in flight', color: callColor, value: (t) => t.calling }],
        stacked: false,
        caps: config.maxCallsInFlight === null ? [] : [{ value: config.maxCallsInFlight, label: `cap ${config.maxCallsInFlight}` }],
        yMax: Math.max(
          maxOver(both, (t) => t.calling),
          config.maxCallsInFlight ?? 0,
        ),
        upTo,
        formatY: String,
        integer: true,
      },
    },
    {
      id: 'cost',
      title: 'Cost spent',
      spec: {
        points: lane.ticks,
        series: perTenant((t) => t.costCents),
        stacked: true,
        caps: [],
        yMax: maxOver(both, (t) => total(t.costCents)),
        upTo,
        formatY: (v, step) => dollars(v, step),
        // Costs are whole cents: no tick between two cents.
        integer: true,
      },
    },
  ];
}

/** Arrival seconds per run, for the runs still waiting at the cursor (computed once per config). */
const arrivalCache = new WeakMap<BackpressureConfig, Map<number, { tenant: number; atSecond: number }>>();

function arrivalIndex(config: BackpressureConfig) {
  let index = arrivalCache.get(config);
  if (!index) {
    const tenants = new Map(config.tenants.map((t, i) => [t.id, i]));
    index = new Map(arrivalsFor(config).map((a) => [a.runId, { tenant: tenants.get(a.tenant) ?? 0, atSecond: a.atSecond }]));
    arrivalCache.set(config, index);
  }
  return index;
}

export function waitsFor(config: BackpressureConfig, lane: LaneState, cursor: number, colors: readonly string[]): TenantWaits[] {
  const rows: TenantWaits[] = config.tenants.map((tenant, i) => ({
    tenant: tenant.id,
    color: tenantColor(colors, i),
    waits: [],
    stillWaiting: 0,
    longestOpenWait: 0,
  }));
  const claimed = new Set<number>();
  const waits: number[][] = rows.map(() => []);
  for (const claim of lane.claims) {
    if (claim.second > cursor) continue;
    claimed.add(claim.runId);
    waits[claim.tenant]?.push(claim.waitedSeconds);
  }
  for (const [runId, arrival] of arrivalIndex(config)) {
    if (arrival.atSecond > cursor || claimed.has(runId)) continue;
    const row = rows[arrival.tenant];
    if (!row) continue;
    row.stillWaiting += 1;
    row.longestOpenWait = Math.max(row.longestOpenWait, cursor - arrival.atSecond);
  }
  return rows.map((row, i) => ({ ...row, waits: waits[i]!.sort((a, b) => a - b) }));
}

/** The longest wait across both lanes (claimed or still open at the end), for a shared axis. */
export function longestWait(config: BackpressureConfig, lanes: Record<ClaimPolicy, LaneState>): number {
  let most = 0;
  for (const lane of Object.values(lanes)) {
    for (const claim of lane.claims) most = Math.max(most, claim.waitedSeconds);
    const end = lane.ticks.length - 1;
    for (const row of waitsFor(config, lane, end, [])) most = Math.max(most, row.longestOpenWait);
  }
  return most;
}
