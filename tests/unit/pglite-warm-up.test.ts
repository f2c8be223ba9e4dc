/**
 * The worker warms Postgres's paths up in idle time with PGliteLab.warmUpPieces(). The pieces must leave
 * no trace (rows, the session's clock, prepared transactions, what the adapter shows) and must not run
 * while a transaction is parked, when a write or a plain FOR UPDATE could wait forever inside PGlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { defaultSettings } from '../../src/scenarios';
import { Simulation } from '../../src/engine/simulation';
import { threeWorkers } from '../../src/scenarios/three-workers';
import { labDatabase } from '../support/lab';

let lab: PGliteLab;
beforeAll(async () => {
  lab = await labDatabase();
});
afterAll(() => lab.close());

async function databaseState() {
  const read = async (sql: string) => (await lab.pg.query(sql)).rows;
  return {
    runs: await read('SELECT * FROM runs ORDER BY run_id'),
    clock: await read(`SELECT current_setting('sim.now', true) AS now`),
    prepared: await read('SELECT gid FROM pg_prepared_xacts ORDER BY gid'),
    shown: [await lab.runs(), await lab.locks()],
  };
}

async function preparedStatements(): Promise<string[]> {
  return (await lab.pg.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((row) => row.name);
}

async function warmUp(): Promise<void> {
  for (const piece of lab.warmUpPieces()) await piece();
}

describe('the warm-up', () => {
  it('runs the claim paths and leaves the database, the clock and the trace as they were', async () => {
    const sim = new Simulation(lab, threeWorkers, defaultSettings(threeWorkers));
    await sim.reset();
    await sim.apply('A'); // claims (parked)
    await sim.apply('A'); // commits: nothing parked now
    const before = await databaseState();
    const trace = JSON.stringify(sim.trace());
    expect(await preparedStatements()).not.toContain('lease_lab_claim_nowait');

    await warmUp();

    expect(await preparedStatements()).toContain('lease_lab_claim_nowait');
    expect(await databaseState()).toEqual(before);
    expect(JSON.stringify(sim.trace())).toBe(trace);
    const [next] = await sim.apply('B');
    expect(next?.verdict).toBe('ok');
  });

  it('does nothing while a transaction is parked', async () => {
    const sim = new Simulation(lab, threeWorkers, { ...defaultSettings(threeWorkers), strategy: 'for-update' });
    await sim.reset();
    await sim.apply('A'); // A's claim is parked, holding a row lock
    const before = await databaseState();
    const prepared = await preparedStatements();

    await warmUp();

    expect(await preparedStatements()).toEqual(prepared);
    expect(await databaseState()).toEqual(before);
  });
});
