/** The backpressure lab on PGlite: seeded arrivals, replayable results, and limits the database enforces. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab } from '../../src/db/pglite-boot';
import { PGliteBackpressure } from '../../src/db/pglite-backpressure';
import { playBackpressure } from '../../src/engine/backpressure';
import { BackpressureHost } from '../../src/webworker/backpressure-host';
import { arrivalsFor } from '../../src/sim/backpressure/arrivals';
import { clampKnob, findPreset, KNOBS, totalRuns } from '../../src/sim/backpressure/presets';
import type { BackpressureConfig, ClaimRecord } from '../../src/sim/backpressure/types';
import { clockIso } from '../../src/sim/clock';
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

/** The waits of each tenant's claims, sorted. */
function waitsByTenant(claims: readonly ClaimRecord[], tenantCount: number): number[][] {
  const waits: number[][] = Array.from({ length: tenantCount }, () => []);
  for (const claim of claims) waits[claim.tenant]?.push(claim.waitedSeconds);
  for (const list of waits) list.sort((a, b) => a - b);
  return waits;
}

/** The q-quantile (0 to 1) of sorted numbers, nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

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
      `SELECT max(cost_cents)::int AS most, count(*) FILTER (WHERE status = 'stopped_cost' AND cost_cents + call_cost_cents <= 12)::int AS stopped_over FROM backpressure.runs`,
    );
    expect(spent.rows[0]!.most).toBeLessThanOrEqual(12);
    expect(spent.rows[0]!.stopped_over).toBe(0);
  });

  it("FIFO starves tenant B behind A's flood; the fair claim takes B's run at once", async () => {
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

describe("the backpressure lab on the race lab's PGlite", () => {
  const arrive = (runIds: number[]) => ({
    sqlId: 'backpressure-arrive' as const,
    params: [JSON.stringify(runIds.map((id) => ({ run_id: id, tenant: 'A', created_at: clockIso(0), work_steps: 1, call_cost_cents: 1 })))],
  });
  const metrics = { sqlId: 'backpressure-metrics' as const, params: [] };

  it('runs a batch one transaction after another; a failed one rolls back alone and the next starts clean', async () => {
    await db.clear();
    const answers = await db.transactions(clockIso(5), [
      { session: 'clients', statements: [arrive([1])] },
      // Run 2 is inserted, then run 1 again fails the primary key: the whole transaction rolls back.
      { session: 'clients', statements: [arrive([2]), arrive([1])] },
      { session: 'observer', statements: [metrics] },
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(['ok', 'error', 'ok']);
    expect(answers[1]).toMatchObject({ code: '23505' });
    expect(answers[2]).toMatchObject({ rows: [{ tenant: 'A', pending: 1, running: 0, done: 0 }] });
  });

  it('refuses to run inside a transaction someone else left open on the session', async () => {
    await raw.exec('BEGIN');
    try {
      await expect(db.transactions(clockIso(1), [{ session: 'observer', statements: [metrics] }])).rejects.toThrow(/inside a transaction/);
    } finally {
      await raw.exec('ROLLBACK');
    }
  });

  it('leaves the session as the race lab set it: its search_path, its clock and its runs table', async () => {
    const before = await raw.query(
      `SELECT current_setting('search_path') AS path, current_setting('sim.now', true) AS now, (SELECT count(*) FROM runs)::int AS runs`,
    );
    await playBackpressure(db, starvation, 'fair', { maxSeconds: 5 });
    const after = await raw.query(
      `SELECT current_setting('search_path') AS path, current_setting('sim.now', true) AS now, (SELECT count(*) FROM runs)::int AS runs`,
    );
    expect(after.rows).toEqual(before.rows);
    const own = await raw.query<{ runs: number }>(`SELECT count(*)::int AS runs FROM backpressure.runs`);
    expect(own.rows[0]!.runs).toBeGreaterThan(0);
  });

  it('plays a lane in stretches with the numbers of one whole run, and a new host replays up to the stretch asked for', async () => {
    const config: BackpressureConfig = { ...overload, streamRuns: 30 };
    const whole = await playBackpressure(db, config, 'fifo');
    const host = new BackpressureHost(async () => db);
    const ticks = [];
    const claims = [];
    let from = 0;
    for (;;) {
      const stretch = await host.play({ type: 'backpressure', config, policy: 'fifo', from, seconds: 25 });
      ticks.push(...stretch.ticks);
      claims.push(...stretch.claims);
      if (stretch.done) {
        expect(stretch).toMatchObject({ steps: whole.steps, finished: whole.finished, totalRuns: whole.totalRuns });
        break;
      }
      from += stretch.ticks.length;
    }
    expect(ticks).toEqual(whole.ticks);
    expect(claims).toEqual(whole.claims);
    const fresh = await new BackpressureHost(async () => db).play({ type: 'backpressure', config, policy: 'fifo', from: 50, seconds: 10 });
    expect(fresh.ticks).toEqual(whole.ticks.slice(50, 60));
    expect(fresh.claims).toEqual(whole.claims.filter((claim) => claim.second >= 50 && claim.second < 60));
  });
});
