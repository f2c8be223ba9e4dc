/**
 * restart:A on the real server: every step from every state of a crash and a restart under the same name
 * (tests/support/restart-scenario.ts) agrees on PGlite and PostgreSQL. On the server the crash ends A's
 * backend and its new life connects a new one; on PGlite its session is the same name with nothing open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/sim/types';
import { RESTARTS } from '../support/restart-scenario';
import { compareStateGraph, type Databases, describeDivergences, openDatabases, summary } from './differential';

let dbs: Databases;

beforeAll(async () => {
  dbs = await openDatabases('graph_restart', 1);
});

afterAll(async () => {
  await dbs?.close();
});

describe('every step from every state of a restart under the same name agrees on PGlite and PostgreSQL', () => {
  it.for<Settings>([
    { strategy: 'naive', fencing: false },
    { strategy: 'skip-locked', fencing: true },
  ])('$strategy, fencing $fencing', { timeout: 120_000 }, async (settings, { signal }) => {
    const result = await compareStateGraph(dbs, RESTARTS, settings, signal);
    console.info(`${summary(`restart ${settings.strategy} fencing ${settings.fencing ? 'on' : 'off'}`, result)}; ${result.states} states`);
    expect(result.cut).toBe(false);
    expect(result.schedules).toBeGreaterThan(0);
    expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
  });
});
