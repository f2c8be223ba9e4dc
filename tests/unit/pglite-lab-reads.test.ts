/**
 * The PGlite adapter answers runs() and locks() from what it read last, and reads them in the same call
 * as the statement that changed them. Every step of a trace shows these, so after every call into the
 * adapter they must equal a fresh read from Postgres itself. And the statements it prepares must be the
 * .sql files' text, byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { PGliteWire } from '../../src/db/pglite-wire';
import type { HeldLock, LabDatabase, SessionId, StatementRequest } from '../../src/db/port';
import { normalizeRow } from '../../src/db/values';
import { seededSchedules } from '../../src/engine/enumerate';
import { findScenario, SCENARIOS } from '../../src/scenarios';
import { analyzeGsetClaimFile } from '../../src/sql/analyze';
import { twoStatementClaim } from '../../src/strategies/custom';
import { STRATEGIES, type StatementOutcome } from '../../src/sim/types';
import { sqlText } from '../../src/sql/registry';
import { forUpdate } from '../../src/strategies/for-update/definition';
import { labDatabase } from '../support/lab';

/** The lab, checked against Postgres after every call that may change what it shows. */
class CheckedLab implements LabDatabase {
  readonly kind = 'pglite' as const;
  checks = 0;

  constructor(private readonly lab: PGliteLab) {}

  reset(seedJson: string): Promise<void> {
    return this.checked(() => this.lab.reset(seedJson));
  }
  execute(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    return this.checked(() => this.lab.execute(session, request));
  }
  executeClaim(session: SessionId, request: StatementRequest): Promise<StatementOutcome> {
    return this.checked(() => this.lab.executeClaim(session, request));
  }
  retryBlocked(session: SessionId): Promise<StatementOutcome> {
    return this.checked(() => this.lab.retryBlocked(session));
  }
  commit(session: SessionId): Promise<StatementOutcome> {
    return this.checked(() => this.lab.commit(session));
  }
  crash(session: SessionId): Promise<void> {
    return this.checked(() => this.lab.crash(session));
  }
  runs() {
    return this.lab.runs();
  }
  locks() {
    return this.lab.locks();
  }
  takeEngineFact() {
    return this.lab.takeEngineFact();
  }
  close() {
    return Promise.resolve();
  }

  private async checked<T>(call: () => Promise<T>): Promise<T> {
    const result = await call();
    // What PGlite's own query() reads now, with the lab's caches out of the way.
    const runs = (await this.lab.pg.query(sqlText('runs-snapshot'))).rows.map(normalizeRow);
    const pairs = (await this.lab.pg.query<{ handle: string; run_id: number }>(sqlText('held-locks-pglite'))).rows;
    const locks = new Map<string, number[]>();
    for (const pair of pairs) locks.set(pair.handle, [...(locks.get(pair.handle) ?? []), pair.run_id]);
    expect(await this.lab.runs()).toEqual(runs);
    expect((await this.lab.locks()).map((lock: HeldLock) => [lock.handle, lock.runIds])).toEqual([...locks.entries()]);
    this.checks += 1;
    return result;
  }
}

/** Every scenario under every strategy, each call read twice: ~5 s quiet, past 60 s under a load of 12 (a safety net, not a bound). */
const EVERY_SCENARIO_TIMEOUT_MS = 240_000;

describe('the PGlite adapter’s reads', () => {
  it(
    'equal a fresh read from Postgres after every call, in random schedules of every scenario and strategy',
    { timeout: EVERY_SCENARIO_TIMEOUT_MS },
    async () => {
      const checked = new CheckedLab(await labDatabase());
      for (const scenario of SCENARIOS) {
        for (const [i, strategy] of STRATEGIES.entries()) {
          await seededSchedules(checked, scenario, { strategy, fencing: i % 2 === 0 }, 1, 7 + i);
        }
      }
      // Every call was checked: several per schedule, one schedule per scenario and strategy.
      expect(checked.checks).toBeGreaterThan(SCENARIOS.length * STRATEGIES.length * 4);
    },
  );

  it('equal a fresh read after every call of a claim in two statements (SELECT … \\gset, then the UPDATE in its transaction)', async () => {
    const checked = new CheckedLab(await labDatabase());
    for (const name of ['skip-locked', 'plain', 'for-update']) {
      const analysis = await analyzeGsetClaimFile(readFileSync(join(__dirname, `../fixtures/claims/two-statement-${name}.sql`), 'utf8'));
      if (!analysis?.ok) throw new Error(name);
      const built = twoStatementClaim(analysis.claim, name);
      if (!built.ok) throw new Error(built.reason);
      for (const id of ['race', 'crash-orphan']) {
        await seededSchedules(checked, findScenario(id)!, { strategy: 'skip-locked', fencing: true, definition: built.definition }, 2, 11);
      }
    }
    expect(checked.checks).toBeGreaterThan(3 * 2 * 2 * 4);
  });
});

describe('the lab’s statements on the wire', () => {
  it('are prepared from the .sql files’ text, byte for byte', async () => {
    const db = await labDatabase();
    const wire = new PGliteWire(db.pg);
    await wire.run([{ sqlId: 'runs-snapshot' }, { sqlId: 'set-clock', params: ['2030-01-01T15:00:00Z'] }]);
    const prepared = await db.pg.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements ORDER BY name');
    const byName = new Map(prepared.rows.map((row) => [row.name, row.statement]));
    expect(byName.get('lease_lab_runs_snapshot')).toBe(sqlText('runs-snapshot'));
    expect(byName.get('lease_lab_set_clock')).toBe(sqlText('set-clock'));
  });

  it('answer each statement of a batch on its own: an error ends only its own statement', async () => {
    const db = await labDatabase();
    const wire = new PGliteWire(db.pg);
    const relock = forUpdate.claim.claim.afterWait.kind === 'relock-found' ? forUpdate.claim.claim.afterWait.relock : null;
    if (!relock) throw new Error('the plain FOR UPDATE claim relocks what it found');
    const [first, failed, after] = await wire.run([
      { command: 'SELECT 1 AS one' },
      { statement: relock, params: ['not a number'] },
      { sqlId: 'set-clock', params: ['2030-01-01T15:00:07Z'] },
    ]);
    expect(first).toMatchObject({ rows: [{ one: 1 }], error: null });
    expect(failed?.error).toMatchObject({ code: '22P02' });
    expect(after).toMatchObject({ rows: [{ set_config: '2030-01-01T15:00:07Z' }], error: null });
    await expect(wire.one('cancel-request', ['not a number'])).rejects.toMatchObject({ code: '22P02' });
  });

  it('a statement whose new text fails to prepare is gone from the session, and its old text is prepared again', async () => {
    const db = await labDatabase();
    const wire = new PGliteWire(db.pg);
    const statement = (text: string, id = 'wire-test-edited') => ({ statement: { id, text, file: null } });
    const good = 'SELECT count(*)::int AS runs FROM runs';
    expect((await wire.one('runs-snapshot')).error).toBeNull();
    expect((await wire.run([statement(good)]))[0]?.rows).toEqual([{ runs: expect.any(Number) }]);
    // Closed before its Parse, which fails: the session no longer has the statement by that name, and the
    // statement after it in the same batch was prepared with its new text.
    await expect(wire.run([statement('SELECT no_such_column FROM runs'), statement('SELECT 2 AS two', 'wire-test-after')])).rejects.toMatchObject({
      code: '42703',
    });
    expect((await wire.run([statement(good)]))[0]?.rows).toEqual([{ runs: expect.any(Number) }]);
    expect((await wire.run([statement('SELECT 2 AS two', 'wire-test-after')]))[0]?.rows).toEqual([{ two: 2 }]);
  });

  it('carry text that is not ASCII, and values longer than the first buffer, both ways', async () => {
    const db = await labDatabase();
    const wire = new PGliteWire(db.pg);
    const long = `Grüße ${'ü'.repeat(700)} ✓`;
    // set_config() echoes its value; inside BEGIN … ROLLBACK the session's clock is left as it was.
    const [, echoed, word] = await wire.run([
      { command: 'BEGIN' },
      { sqlId: 'set-clock', params: [long] },
      { command: `SELECT 'naïve ✓' AS word` },
      { command: 'ROLLBACK' },
    ]);
    expect(echoed?.rows).toEqual([{ set_config: long }]);
    expect(word?.rows).toEqual([{ word: 'naïve ✓' }]);
  });

  it('parse values as PGlite’s query() does', async () => {
    const db = await labDatabase();
    await db.reset(
      JSON.stringify([
        {
          run_id: 7,
          tenant: 't',
          status: 'pending',
          lease_generation: 3,
          cancel_requested: false,
          created_at: '2030-01-01T14:00:00Z',
          progress: 0,
          cost_cents: 0,
        },
      ]),
    );
    const wire = new PGliteWire(db.pg);
    const [viaWire] = await wire.run([{ sqlId: 'runs-snapshot' }]);
    const viaQuery = await db.pg.query(sqlText('runs-snapshot'));
    expect(viaWire?.rows).toEqual(viaQuery.rows);
    expect(viaWire?.rows[0]?.created_at).toBeInstanceOf(Date);
  });
});
