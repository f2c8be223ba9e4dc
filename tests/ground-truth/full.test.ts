/**
 * The full ground truth: every interleaving of every two-worker scenario whose script moves the clock or
 * injects faults, under every strategy with fencing on and off. (With GROUND_TRUTH=full the exhaustive
 * files of npm test widen too: both fencings, and the race under every locking claim.) Tens of thousands of schedules (about half
 * an hour on two cores), so `npm test` leaves it to `npm run test:ground-truth:full`, which sets
 * GROUND_TRUTH=full; `npm test` covers these scenarios with seeded samples (seeded.test.ts).
 *
 * GROUND_TRUTH_SCENARIOS=crash-orphan,heartbeat narrows it to some scenarios.
 */
import { describe, it } from 'vitest';
import { SCENARIOS } from '../../src/scenarios';
import { environmentLane } from '../../src/engine/enumerate';
import { STRATEGIES } from '../../src/sim/types';
import { everyInterleaving } from './exhaustive';

const wanted = process.env.GROUND_TRUTH_SCENARIOS?.split(',').filter(Boolean) ?? null;
const scenarios = SCENARIOS.filter((s) => s.workers.length === 2 && environmentLane(s).length > 0 && (wanted === null || wanted.includes(s.id)));

if (process.env.GROUND_TRUTH === 'full') {
  for (const scenario of scenarios) describe(scenario.id, () => everyInterleaving(scenario.id, STRATEGIES, { environment: true }));
} else {
  describe('full ground truth', () => {
    it.skip(`every interleaving of ${scenarios.map((s) => s.id).join(', ')}: run npm run test:ground-truth:full`, () => {});
  });
}
