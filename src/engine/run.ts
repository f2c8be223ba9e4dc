/**
 * Whole runs: a schedule played from a fresh reset, optionally finished by a policy.
 */
import type { LabDatabase } from '../db/port';
import { pick, seededRandom } from '../sim/random';
import { isWorkerToken } from '../sim/schedule';
import type { Scenario, Settings, Trace } from '../sim/types';
import { type OnInapplicable, replay } from './replay';
import type { Simulation } from './simulation';

/** What happens after the given schedule runs out. */
export type Finish = { kind: 'none' } | { kind: 'round-robin' } | { kind: 'random'; seed: number };

/** Steps a finishing policy may add; every scenario ends far sooner. */
const MAX_FINISH_STEPS = 500;

/**
 * The token a policy plays next, or null when the run is over. Round-robin takes the first movable
 * worker after the last one that moved; random picks among movable workers with the seeded generator.
 * When nobody can move but the clock can free someone (a paused worker's timed resume), the clock moves.
 */
export function nextPolicyToken(sim: Simulation, finish: Finish, last: string | undefined, random: () => number): string | null {
  // A stuck worker never finishes by itself, so a finishing policy leaves it alone.
  const movable = sim.movable().filter((id) => !sim.scenario.workers.find((w) => w.id === id)?.stuck);
  if (movable.length === 0) {
    if (sim.isOver() || sim.movable().length > 0) return null;
    const next = sim.nextEventSeconds();
    return next === null ? null : `+${next - sim.clock}`;
  }
  if (finish.kind === 'random') return pick(random, movable);
  const after = movable.find((id) => last !== undefined && isWorkerToken(last) && id > last);
  return after ?? movable[0]!;
}

export interface RunOptions {
  finish?: Finish;
  /** What a token that cannot apply does (replay.ts): 'error' unless asked otherwise. */
  onInapplicable?: Exclude<OnInapplicable, 'stop'>;
}

export async function runSchedule(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  schedule: readonly string[],
  options: RunOptions = {},
): Promise<Trace> {
  const finish = options.finish ?? { kind: 'none' };
  const { sim } = await replay(db, { scenario, settings, schedule }, { onInapplicable: options.onInapplicable ?? 'error' });
  const random = seededRandom(finish.kind === 'random' ? finish.seed : 0);
  if (finish.kind !== 'none') {
    let last = schedule.at(-1);
    for (let i = 0; i < MAX_FINISH_STEPS; i++) {
      const token = nextPolicyToken(sim, finish, last, random);
      if (token === null) break;
      await sim.apply(token);
      if (isWorkerToken(token)) last = token;
    }
  }
  // Nothing is left to happen: the schedule is complete, and its end is judged (a witness of check included).
  if (nextPolicyToken(sim, { kind: 'round-robin' }, undefined, random) === null) await sim.conclude();
  return sim.trace();
}
