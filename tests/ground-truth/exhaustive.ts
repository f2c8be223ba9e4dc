/**
 * Every interleaving of one two-worker scenario under the given strategies, on PGlite and on the real
 * server. The work is split over a few test files so that vitest can run them side
 * by side (maxWorkers 2 on this 2-core machine).
 *
 * Scenarios whose script moves the clock or injects faults have those tokens as a lane of their own, kept
 * in script order and interleaved with the workers' steps at every point (see src/engine/enumerate.ts):
 * their trees run to a few thousand schedules per setting, too many for every `npm test`, so they run in
 * the full ground truth (`npm run test:ground-truth:full`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLane } from '../../src/engine/enumerate';
import { findScenario } from '../../src/scenarios';
import { STRATEGIES, type Strategy } from '../../src/sim/types';
import { compareEveryInterleaving, type Databases, describeDivergences, openDatabases, summary } from './differential';

/** Far above the largest count (race with compare-and-set: 448); reaching it means the scenario grew. */
const LIMIT = 5000;
/**
 * With environment tokens the trees are larger (crash-orphan, naive: 1,147; heartbeat, naive: over 50,000,
 * because each +30 can fall between any two of a worker's steps). Past the limit the search is cut and the
 * log says so: those scenarios are compared on the first ENVIRONMENT_LIMIT schedules only.
 */
const ENVIRONMENT_LIMIT = 50_000;
/** Enumerating replays each prefix from a reset, so a deep tree costs minutes per setting. */
const ENVIRONMENT_TIMEOUT_MS = 3 * 60 * 60_000;
/** The largest case is a few hundred schedules; on a busy machine that can take a while. */
const CASE_TIMEOUT_MS = 300_000;

export function everyInterleaving(id: string, strategies: readonly Strategy[], options: { environment?: boolean } = {}): void {
  const scenario = findScenario(id);
  const limit = options.environment ? ENVIRONMENT_LIMIT : LIMIT;
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
  const bothFencings = options.environment === true || process.env.GROUND_TRUTH === 'full';
  const cases = strategies.flatMap((strategy) =>
    (bothFencings ? [false, true] : [STRATEGIES.indexOf(strategy) % 2 === 1]).map((fencing) => ({ strategy, fencing })),
  );

  describe(`every interleaving of ${id} agrees on PGlite and PostgreSQL`, () => {
    it(options.environment ? 'has environment tokens, interleaved as a lane of their own' : 'has no environment tokens', () => {
      expect(scenario).toBeDefined();
      expect(environmentLane(scenario!).length > 0).toBe(options.environment === true);
    });

    it.for(cases)('$strategy, fencing $fencing', { timeout: options.environment ? ENVIRONMENT_TIMEOUT_MS : CASE_TIMEOUT_MS }, async (settings, { signal }) => {
      const result = await compareEveryInterleaving(dbs, scenario!, settings, limit, signal);
      console.info(summary(`${id} ${settings.strategy} fencing ${settings.fencing ? 'on' : 'off'}`, result));
      if (options.environment && result.cut) console.info(`${id} ${settings.strategy}: CUT at ${limit} schedules, not every interleaving`);
      else expect(result.cut, `more than ${limit} schedules: the exhaustive search was cut`).toBe(false);
      expect(result.schedules).toBeGreaterThan(0);
      expect(result.divergences.length, describeDivergences(result.divergences)).toBe(0);
    });
  });
}
