/** The fast explorer must count exactly what brute force counts, group by group. */
import { describe, expect, it } from 'vitest';
import { exploreBruteForce, exploreFast } from '../../src/engine/explore';
import { findScenario } from '../../src/scenarios';
import { STRATEGIES } from '../../src/sim/types';
import { labDatabase } from '../support/lab';

const counts = (groups: { key: string; count: number }[]) => Object.fromEntries(groups.map((g) => [g.key, g.count]));

describe('interleaving explorer', () => {
  // Every strategy on lock-wait; on race (hundreds of schedules each) the two extremes, to keep CI quick.
  const cases = [...STRATEGIES.map((s) => ['lock-wait', s] as const), ['race', 'naive'] as const, ['race', 'skip-locked'] as const];
  for (const [id, strategy] of cases) {
    {
      it(`${id} / ${strategy}: fast path and brute force agree on every outcome group`, async () => {
        const db = await labDatabase();
        const scenario = findScenario(id)!;
        const settings = { strategy, fencing: false };
        const brute = await exploreBruteForce(db, scenario, settings);
        const fast = await exploreFast(db, scenario, settings);
        expect(counts(fast.groups)).toEqual(counts(brute.groups));
        expect(fast.total).toBe(brute.total);
        for (const group of fast.groups) {
          const shortest = Math.min(...brute.groups.filter((g) => g.key === group.key).map((g) => g.witness.length));
          expect(group.witness.length, group.key).toBe(shortest);
        }
      }, 120_000);
    }
  }

  it('the naive race double-executes in some schedules; the atomic claim in none', async () => {
    const db = await labDatabase();
    const naive = await exploreFast(db, findScenario('race')!, { strategy: 'naive', fencing: false });
    expect(naive.groups.some((g) => g.key.includes('duplicate-execution:123'))).toBe(true);
    const atomic = await exploreFast(db, findScenario('race')!, { strategy: 'skip-locked', fencing: false });
    expect(atomic.groups.map((g) => g.key)).toEqual(['none']);
  });
});
