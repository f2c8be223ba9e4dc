/**
 * The backpressure lab's claims on a real PostgreSQL server: the engine gives the same numbers there as
 * on PGlite, and the limits hold when many real sessions claim, call and finish at once.
 */
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab } from '../../src/db/pglite-boot';
import { PGliteBackpressure } from '../../src/db/pglite-backpressure';
import { PostgresBackpressure } from '../../src/db/postgres-backpressure';
import { callStartStatements, claimStatements, playBackpressure } from '../../src/engine/backpressure';
import { findPreset } from '../../src/sim/backpressure/presets';
import type { BackpressureConfig, ClaimPolicy, LaneResult } from '../../src/sim/backpressure/types';
import { clockIso } from '../../src/sim/clock';
import { sqlText } from '../../src/sql/registry';
import { testDatabaseUrl } from './differential';

let url: string;
let onPostgres: PostgresBackpressure;
let onPGlite: PGliteBackpressure;

beforeAll(async () => {
  url = await testDatabaseUrl('backpressure');
  const [server, boot] = await Promise.all([PostgresBackpressure.connect(url), bootLab()]);
  onPostgres = server;
  onPGlite = await PGliteBackpressure.open(boot.db.pg);
});

afterAll(async () => {
  await Promise.all([onPostgres?.close(), onPGlite?.close()]);
});

const starvation = findPreset('starvation')!.config;
const overload = findPreset('overload')!.config;

/** The first difference between two lanes, for a readable failure. */
function firstDifference(a: LaneResult, b: LaneResult): string | null {
  const seconds = Math.max(a.ticks.length, b.ticks.length);
  for (let i = 0; i < seconds; i++) {
    if (!isDeepStrictEqual(a.ticks[i], b.ticks[i])) return `second ${i}: PGlite ${JSON.stringify(a.ticks[i])} vs PostgreSQL ${JSON.stringify(b.ticks[i])}`;
  }
  if (!isDeepStrictEqual(a.claims, b.claims)) return 'the claims differ';
  return isDeepStrictEqual(a, b) ? null : 'the summaries differ';
}

/** A smaller flood than the preset's, so it plays to the end in a few seconds; B's wait is the lesson. */
const smallFlood: BackpressureConfig = { ...starvation, tenants: starvation.tenants.map((t) => (t.burst ? { ...t, burst: 10 } : t)) };

describe('the backpressure engine on PGlite and on PostgreSQL', () => {
  const played = new Map<string, LaneResult>();
  const cases: [string, BackpressureConfig, ClaimPolicy, number][] = [
    ['starvation, FIFO', smallFlood, 'fifo', Number.POSITIVE_INFINITY],
    ['starvation, fair', smallFlood, 'fair', Number.POSITIVE_INFINITY],
    // Every limit at work: calls throttled at the cap, runs stopped at a small budget.
    ['overload, fair, every limit', { ...overload, maxCostPerRunCents: 9 }, 'fair', 60],
  ];
  for (const [name, config, policy, maxSeconds] of cases) {
    it(`${name}: the same numbers every second`, async () => {
      const lite = await playBackpressure(onPGlite, config, policy, { maxSeconds });
      const real = await playBackpressure(onPostgres, config, policy, { maxSeconds });
      expect(firstDifference(lite, real)).toBeNull();
      played.set(name, real);
      expect(lite.ticks.length).toBeGreaterThan(20);
      if (name.startsWith('overload')) {
        expect(
          lite.ticks.some((t) => t.throttledCalls > 0),
          'the model-call cap refused a call',
        ).toBe(true);
        expect(lite.ticks.at(-1)!.stopped, 'some runs hit their budget').toBeGreaterThan(0);
      }
    });
  }

  it('FIFO leaves B behind all of A; the fair claim takes B at once', () => {
    const waitOfB = (lane: LaneResult) => lane.claims.find((claim) => claim.tenant === 1)?.waitedSeconds;
    const fifo = played.get('starvation, FIFO')!;
    const fair = played.get('starvation, fair')!;
    expect(fifo.finished && fair.finished).toBe(true);
    expect(waitOfB(fair)).toBe(0);
    expect(waitOfB(fifo)).toBeGreaterThan(20);
    // Under FIFO, B's run is claimed only after every one of A's.
    expect(fifo.claims.at(-1)?.tenant).toBe(1);
  });
});

describe('the limits under real concurrency', () => {
  /** A raw connection of our own, with the lab's search_path and clock. */
  async function session(name: string): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url, application_name: `bp_test_${name}` });
    await client.connect();
    await client.query(sqlText('session-setup'));
    await client.query(sqlText('set-clock'), [clockIso(100)]);
    return client;
  }

  async function seed(client: pg.Client, runs: { tenant: string; calls: number }[]): Promise<void> {
    await client.query(sqlText('truncate-runs'));
    const json = runs.map((run, i) => ({ run_id: i + 1, tenant: run.tenant, created_at: clockIso(i % 50), work_steps: run.calls, call_cost_cents: 1 }));
    await client.query(sqlText('backpressure-arrive'), [JSON.stringify(json)]);
  }

  it('a second claim waits on the claim lock until the first commits, then counts its run', async () => {
    const [first, second, look] = await Promise.all([session('first'), session('second'), session('look')]);
    try {
      await seed(look, [
        { tenant: 'A', calls: 1 },
        { tenant: 'A', calls: 1 },
        { tenant: 'B', calls: 1 },
      ]);
      const config = { ...starvation, maxActivePerTenant: 1 };
      const [lock, claim] = claimStatements('fair', 'first', config);
      await first.query('BEGIN');
      await first.query(sqlText(lock!.sqlId));
      const firstClaim = await first.query(sqlText(claim!.sqlId), claim!.params);
      expect(firstClaim.rows[0]).toMatchObject({ run_id: 1, tenant: 'A' });
      // The second claim's transaction stops at the lock: a real wait, on the server.
      const [lock2, claim2] = claimStatements('fair', 'second', config);
      await second.query('BEGIN');
      const waiting = second.query(sqlText(lock2!.sqlId));
      let waitEvent: string | null = null;
      for (let i = 0; i < 200 && waitEvent === null; i++) {
        const seen = await look.query<{ wait_event: string | null }>(
          `SELECT wait_event FROM pg_stat_activity WHERE application_name = 'bp_test_second' AND wait_event_type = 'Lock'`,
        );
        waitEvent = seen.rows[0]?.wait_event ?? null;
        if (waitEvent === null) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(waitEvent).toBe('advisory');
      await first.query('COMMIT');
      await waiting;
      // Its count is taken after the lock: it sees A at its limit and takes B's run instead of A's second.
      const secondClaim = await second.query(sqlText(claim2!.sqlId), claim2!.params);
      await second.query('COMMIT');
      expect(secondClaim.rows[0]).toMatchObject({ run_id: 3, tenant: 'B' });
    } finally {
      await Promise.all([first.end(), second.end(), look.end()]);
    }
  });

  it('12 sessions claiming, calling and finishing at once never pass a limit', async () => {
    const sessions = 12;
    const config: BackpressureConfig = { ...overload, maxActiveRuns: 7, maxActivePerTenant: 3, maxCallsInFlight: 4, maxCostPerRunCents: null };
    const clients = await Promise.all(Array.from({ length: sessions }, (_, i) => session(`w${i}`)));
    const look = await session('observer');
    try {
      const tenants = ['A', 'B', 'C', 'D'];
      await seed(
        look,
        Array.from({ length: 240 }, (_, i) => ({ tenant: tenants[i % 7 < 4 ? 0 : (i % 3) + 1]!, calls: 1 + (i % 3) })),
      );
      const violations: string[] = [];
      let samples = 0;
      let busiest = { running: 0, perTenant: 0, calling: 0 };
      let working = true;
      const watch = (async () => {
        while (working) {
          const seen = await look.query<{ tenant: string; running: number; calling: number }>(
            `SELECT tenant, count(*) FILTER (WHERE status = 'running')::int AS running,
                    count(*) FILTER (WHERE call_started_at IS NOT NULL)::int AS calling
             FROM runs GROUP BY tenant`,
          );
          samples += 1;
          const running = seen.rows.reduce((sum, row) => sum + row.running, 0);
          const calling = seen.rows.reduce((sum, row) => sum + row.calling, 0);
          const perTenant = Math.max(...seen.rows.map((row) => row.running));
          busiest = {
            running: Math.max(busiest.running, running),
            perTenant: Math.max(busiest.perTenant, perTenant),
            calling: Math.max(busiest.calling, calling),
          };
          if (running > 7 || perTenant > 3 || calling > 4) violations.push(JSON.stringify(seen.rows));
        }
      })();
      const transaction = async (client: pg.Client, statements: { sqlId: Parameters<typeof sqlText>[0]; params: unknown[] }[]) => {
        await client.query('BEGIN');
        let rows: Record<string, unknown>[] = [];
        for (const statement of statements) rows = (await client.query(sqlText(statement.sqlId), statement.params)).rows;
        await client.query('COMMIT');
        return rows;
      };
      // Every session works as a worker would, flat out, with no pauses: claim, then call after call.
      const work = clients.map(async (client, i) => {
        const me = `w${i}`;
        let finished = 0;
        for (let turn = 0; turn < 40; turn++) {
          const [claimed] = await transaction(client, claimStatements(i % 2 === 0 ? 'fair' : 'fifo', me, config));
          if (!claimed) continue;
          const runId = Number(claimed.run_id);
          for (let call = 0; call < 10; call++) {
            const [started] = await transaction(client, callStartStatements(runId, me, config));
            if (!started) continue; // the cap: try again
            // The model answers after a moment, so calls from different sessions overlap.
            await new Promise((resolve) => setTimeout(resolve, 10));
            const [answer] = (await client.query(sqlText('backpressure-call-finish'), [runId, me])).rows;
            if (answer?.status === 'done') break;
          }
          finished += 1;
        }
        return finished;
      });
      const finished = await Promise.all(work);
      working = false;
      await watch;
      expect(violations).toEqual([]);
      expect(samples).toBeGreaterThan(20);
      // The test exercised the limits: they were reached, not merely never approached.
      expect(busiest).toEqual({ running: 7, perTenant: 3, calling: 4 });
      expect(finished.reduce((a, b) => a + b, 0)).toBeGreaterThan(60);
    } finally {
      await Promise.all([...clients.map((c) => c.end()), look.end()]);
    }
  });
});
