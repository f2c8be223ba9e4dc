/**
 * The one replay loop (src/engine/replay.ts): what a token that cannot apply does under each choice, and
 * the hooks its callers (the Web Worker's load, the explorer's restores) read the replay through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { replay, replayOnto } from '../../src/engine/replay';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { ScheduleError } from '../../src/sim/schedule';
import type { Settings } from '../../src/sim/types';

const race = findScenario('race')!;
const settings: Settings = { strategy: 'skip-locked', fencing: true };
// C is no worker of the race: it can never apply, wherever it stands.
const schedule = ['A', 'C', 'A', 'B'];

let db: LabDatabase;
beforeAll(async () => {
  db = await bootLabDatabase();
});
afterAll(async () => {
  await db.close();
});

describe('a token that cannot apply', () => {
  it("'error' (the default) fails the replay, naming the step from 1 and its token", async () => {
    const failed = replay(db, { scenario: race, settings, schedule });
    await expect(failed).rejects.toBeInstanceOf(ScheduleError);
    await expect(replay(db, { scenario: race, settings, schedule })).rejects.toThrow(/^step 2 \(C\): this scenario has no worker C/);
  });

  it("'skip' leaves it out and plays the rest", async () => {
    const { sim, refused } = await replay(db, { scenario: race, settings, schedule }, { onInapplicable: 'skip' });
    expect(refused).toEqual([{ index: 1, token: 'C', reason: expect.stringMatching(/no worker C/) }]);
    expect(sim.trace().schedule).toEqual(['A', 'A', 'B']);
  });

  it("'stop' ends the replay there: nothing after it is played", async () => {
    const { sim, refused } = await replay(db, { scenario: race, settings, schedule }, { onInapplicable: 'stop' });
    expect(refused.map((r) => r.index)).toEqual([1]);
    expect(sim.trace().schedule).toEqual(['A']);
  });
});

describe('the hooks', () => {
  it('sees the reset state first, then every applied token with its steps, in order; a progress call before each token', async () => {
    const seen: string[] = [];
    const sim = new Simulation(db, race, settings);
    await replayOnto(sim, ['A', 'A', 'B'], {
      afterReset: (fresh) =>
        seen.push(
          `reset: ${fresh
            .trace()
            .finalRuns.map((run) => `${run.run_id} ${run.status}`)
            .join(', ')}`,
        ),
      beforeToken: () => seen.push('progress'),
      applied: (token, steps) => seen.push(`${token}: ${steps.length} step(s)`),
    });
    expect(seen[0]).toBe('reset: 123 pending, 124 pending');
    expect(seen.slice(1)).toEqual(['progress', 'A: 1 step(s)', 'progress', 'A: 1 step(s)', 'progress', 'B: 1 step(s)']);
  });

  it('replays onto a used simulation from a reset: the same tokens give the same trace', async () => {
    const sim = new Simulation(db, race, settings);
    await replayOnto(sim, ['A', 'A', 'B', 'B']);
    const first = sim.trace();
    await replayOnto(sim, ['A', 'A', 'B', 'B']);
    expect(sim.trace()).toEqual(first);
  });
});
