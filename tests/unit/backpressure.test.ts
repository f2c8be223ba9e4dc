/** The backpressure lab on PGlite: seeded arrivals, replayable results, and limits the database enforces. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab } from '../../src/db/pglite-boot';
import { PGliteBackpressure } from '../../src/db/pglite-backpressure';
import { playBackpressure } from '../../src/engine/backpressure';
import { arrivalsFor } from '../../src/sim/backpressure/arrivals';
import { clampKnob, findPreset, KNOBS, totalRuns } from '../../src/sim/backpressure/presets';
import { quantile, waitsByTenant } from '../../src/sim/backpressure/summary';
import type { BackpressureConfig } from '../../src/sim/backpressure/types';
import { sqlText } from '../../src/sql/registry';

let db: PGliteBackpressure;
let raw: Awaited<ReturnType<typeof bootLab>>['db']['pg'];

beforeAll(async () => {
  const boot = await bootLab();
  raw = boot.db.pg;
  db = await PGliteBackpressure.open(raw);
});

afterAll(async () => {
  await db?.close();
});

const overload = findPreset('overload')!.config;
const starvation = findPreset('starvation')!.config;

describe('arrivals', () => {
  it('follow the seed: the same seed gives the same runs, another seed other runs', () => {
    const a = arrivalsFor(overload);
    expect(arrivalsFor(overload)).toEqual(a);
    expect(arrivalsFor({ ...overload, seed: overload.seed + 1 })).not.toEqual(a);
    expect(a).toHaveLength(totalRuns(overload));
    expect(a.map((run) => run.runId)).toEqual(a.map((_, i) => i + 1));
    expect(a.every((run, i) => i === 0 || run.atSecond >= a[i - 1]!.atSecond)).toBe(true);
    expect(new Set(a.map((run) => run.tenant))).toEqual(new Set(['A', 'B', 'C']));
  });

  it('put a burst at its second and the stream around its rate', () => {
    const runs = arrivalsFor(starvation);
    expect(runs.filter((run) => run.tenant === 'A' && run.atSecond === 0)).toHaveLength(100);
    expect(runs.filter((run) => run.tenant === 'B')).toHaveLength(1);
    const stream = arrivalsFor({ ...overload, streamRuns: 2000 });
    const lastSecond = stream.at(-1)!.atSecond;
    expect(2000 / lastSecond).toBeGreaterThan(overload.arrivalsPerSecond * 0.9);
    expect(2000 / lastSecond).toBeLessThan(overload.arrivalsPerSecond * 1.1);
  });

  it('knobs from a link are brought into range', () => {
    const workers = KNOBS.find((k) => k.id === 'workers')!;
    const cost = KNOBS.find((k) => k.id === 'maxCostPerRunCents')!;
    expect(clampKnob(workers, 1e9)).toBe(32);
    expect(clampKnob(workers, null)).toBe(1);
    expect(clampKnob(cost, null)).toBeNull();
    expect(clampKnob(KNOBS.find((k) => k.id === 'arrivalsPerSecond')!, 1.234)).toBe(1.2);
  });
});

describe('the backpressure engine', () => {
  const limited: BackpressureConfig = { ...overload, streamRuns: 90, maxCostPerRunCents: 12 };

  it('is replayable: the same knobs and seed give the same result, to the last number', async () => {
    const first = await playBackpressure(db, limited, 'fair', { maxSeconds: 40 });
    const second = await playBackpressure(db, limited, 'fair', { maxSeconds: 40 });
    expect(second).toEqual(first);
    expect(first.ticks).toHaveLength(40);
  });

  it('never passes a limit, and the limits are reached (the database, not the loop, refuses)', async () => {
    const lane = await playBackpressure(db, limited, 'fair');
    expect(lane.finished).toBe(true);
    const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
    for (const tick of lane.ticks) {
      expect(total(tick.running), `second ${tick.second}`).toBeLessThanOrEqual(limited.maxActiveRuns!);
      expect(Math.max(...tick.running), `second ${tick.second}`).toBeLessThanOrEqual(limited.maxActivePerTenant!);
      expect(tick.calling, `second ${tick.second}`).toBeLessThanOrEqual(limited.maxCallsInFlight!);
    }
    expect(Math.max(...lane.ticks.map((t) => t.calling))).toBe(limited.maxCallsInFlight);
    expect(lane.ticks.some((t) => t.throttledCalls > 0)).toBe(true);
    const last = lane.ticks.at(-1)!;
    expect(last.done + last.stopped).toBe(lane.totalRuns);
    expect(last.stopped).toBeGreaterThan(0);
    // No run was allowed a call that took it past its budget.
    const spent = await raw.query<{ most: number; stopped_over: number }>(
      `SELECT max(cost_cents)::int AS most, count(*) FILTER (WHERE status = 'stopped_cost' AND cost_cents + call_cost_cents <= 12)::int AS stopped_over FROM runs`,
    );
    expect(spent.rows[0]!.most).toBeLessThanOrEqual(12);
    expect(spent.rows[0]!.stopped_over).toBe(0);
  });

  it('FIFO starves tenant B behind A\'s flood; the fair claim takes B\'s run at once', async () => {
    const flood = { ...starvation, tenants: starvation.tenants.map((t) => (t.burst ? { ...t, burst: 30 } : t)) };
    const fifo = await playBackpressure(db, flood, 'fifo');
    const fair = await playBackpressure(db, flood, 'fair');
    const waitsB = (lane: typeof fifo) => waitsByTenant(lane.claims, 2)[1]!;
    expect(waitsB(fair)).toEqual([0]);
    expect(quantile(waitsB(fifo), 1)).toBeGreaterThan(60);
    // FIFO leaves workers idle while B waits: never more than A's 2 runs active until A is done.
    const bArrives = fifo.claims.find((c) => c.tenant === 1)!.second;
    expect(fifo.ticks.slice(3, bArrives).every((t) => t.running[0]! <= 2 && t.running[1] === 0)).toBe(true);
  });

  it('claims through SQL that states every limit', () => {
    for (const id of ['claim-fifo-tenant', 'claim-fair-tenant'] as const) {
      expect(sqlText(id)).toMatch(/count\(\*\)[\s\S]*< \$2/);
    }
    expect(sqlText('backpressure-claim-lock')).toMatch(/pg_advisory_xact_lock/);
  });
});
