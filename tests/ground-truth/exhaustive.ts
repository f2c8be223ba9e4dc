/**
 * Every interleaving of one two-worker scenario under the given strategies, on PGlite and on the real
 * server. The work is split over a few test files so that vitest can run them side
 * by side (maxWorkers 2 on this 2-core machine).
 *
 * Only for scenarios without clock or fault tokens, whose trees are small: the others' trees run to tens of
 * thousands of schedules, and state-graph.ts checks them by their distinct states instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLane } from '../../src/engine/enumerate';
import { findScenario } from '../../src/scenarios';
import type { Strategy } from '../../src/sim/types';
import { compareEveryInterleaving, type Databases, describeDivergences, fencingInNpmTest, openDatabases, summary } from './differential';

/** Far above the largest count (race with compare-and-set: 448); reaching it means the scenario grew. */
const LIMIT = 5000;
/** The largest case is a few hundred schedules; on a busy machine that can take a while. */
const CASE_TIMEOUT_MS = 300_000;

export function everyInterleaving(id: string, strategies: readonly Strategy[]): void {
  const scenario = findScenario(id);
  let dbs: Databases;

  beforeAll(async () => {
    dbs = await openDatabases(`every_${id.replace(/-/g, '_')}_${strategies.join('_').replace(/-/g, '_')}`);
  });

  afterAll(async () => {
    await dbs?.close();
  });

  // Without clock moves no lease expires, so fencing changes which write statements run, not what they
  // do. To fit npm test's time budget fencing alternates by strategy there (naive off, compare-and-set on,
  // SKIP LOCKED off, FOR UPDATE on, NOWAIT off: both write variants run); the full ground truth runs both.
  const bothFencings = process.env.GROUND_TRUTH === 'full';
  const cases = strategies.flatMap((strategy) => (bothFencings ? [false, true] : [fencingInNpmTest(strategy)]).map((fencing) => ({ strategy, fencing })));

  describe(`every interleaving of ${id} agrees on PGlite and PostgreSQL`, () => {
    it('has no environment tokens', () => {
      expect(scenario).toBeDefined();
      expect(environmentLane(scenario!)).toEqual([]);
    });

    it.for(cases)('$strategy, fencing $fencing', { timeout: CASE_TIMEOUT_MS }, async (settings, { signal }) => {
      const result = await compareEveryInterleaving(dbs, scenario!, settings, LIMIT, signal);
      console.info(summary(`${id} ${settings.strategy} fencing ${settings.fencing ? 'on' : 'off'}`, result));
      expect(result.cut, `more than ${LIMIT} schedules: the exhaustive search was cut`).toBe(false);
      expect(result.schedules).toBeGreaterThan(0);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    });
  });
}
