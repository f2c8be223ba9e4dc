/**
 * A swarm seed played: the scenario it names (src/scenarios/swarm.ts), under the strategy and fencing it
 * drew, as two schedules. The scenario's script, tokens that cannot apply left out and the rest finished
 * round-robin (as the CLI plays any scenario's script); and one random walk from the same seed, which
 * interleaves the workers with the script's clock moves and events in an order of its own.
 */
import type { LabDatabase } from '../db/port';
import { defaultSettings } from '../scenarios';
import { swarmScenario } from '../scenarios/swarm';
import type { StrictIsolation } from '../sim/isolation';
import type { Scenario, Settings } from '../sim/types';
import { type ExploredSchedule, seededSchedules } from './enumerate';
import { runSchedule } from './run';

/**
 * Plays on the server for a swarm schedule whose commit wakes several waiters (see RACE_PLAYS). A generated
 * scenario can wake three or four at once, a write and claims for the same row among them, and the real
 * server lets them in in an order of its own: seed 170's script matches PGlite's order in about one play of
 * three (7 of 20 plays here). 40 plays make missing it rarer than one in ten million (0.65^40); one that never
 * matches in 40 is a divergence.
 */
export const SWARM_RACE_PLAYS = 40;

export interface SwarmPlay {
  seed: number;
  scenario: Scenario;
  settings: Settings;
  /** The script as played, then the random walk. */
  schedules: (ExploredSchedule & { name: 'script' | 'random walk' })[];
}

/** `isolation`: the claims at that level (a real server only: the Simulation refuses it on PGlite). */
export async function playSwarmSeed(db: LabDatabase, seed: number, isolation?: StrictIsolation): Promise<SwarmPlay> {
  const scenario = swarmScenario(seed);
  const settings: Settings = { ...defaultSettings(scenario), ...(isolation ? { isolation } : {}) };
  const scripted = await runSchedule(db, scenario, settings, scenario.script, { onInapplicable: 'skip', finish: { kind: 'round-robin' } });
  const [walk] = await seededSchedules(db, scenario, settings, 1, seed);
  return {
    seed,
    scenario,
    settings,
    schedules: [
      { name: 'script', schedule: scripted.schedule, trace: scripted },
      { name: 'random walk', ...walk! },
    ],
  };
}
