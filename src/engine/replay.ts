/**
 * A schedule played from a reset, token by token: the one loop behind every replay (a CLI run, the
 * differential's server play, the Web Worker's load, its hand-back after a loan and its console view, the
 * explorer's restores). What differs between them is only what a token that cannot apply means, so that
 * is the one choice a caller makes. (A search on PGlite goes back to a state it stood at by a mark instead,
 * Walk.restoreMark: the database's calls again, the simulation's state as it was.)
 */
import type { LabDatabase } from '../db/port';
import { ScheduleError } from '../sim/schedule';
import type { Scenario, Settings, TraceStep } from '../sim/types';
import { Simulation } from './simulation';

/**
 * What a token that cannot apply does to the replay. 'error': the replay fails, naming the step (a schedule
 * someone wrote, or one that applied before and must again). 'skip': it is left out and the rest plays (a
 * scenario's script under another strategy, where a worker may have stopped sooner). 'stop': the replay
 * ends there (the tokens after it were written for a state this database did not reach).
 */
export type OnInapplicable = 'error' | 'skip' | 'stop';

export interface RefusedToken {
  /** Its position in the schedule, from 0. */
  index: number;
  token: string;
  reason: string;
}

export interface ReplayOptions {
  onInapplicable?: OnInapplicable;
  /** Called once the simulation is reset, before the first token (the state a load starts from). */
  afterReset?: (sim: Simulation) => void;
  /** Called before each token: a long replay's sign of life (the Web Worker's progress). */
  beforeToken?: () => void;
  /** Called with each token that applied and the steps it took. */
  applied?: (token: string, steps: TraceStep[]) => void;
}

export interface Replayed {
  sim: Simulation;
  /** The tokens that could not apply, in order (at most one with 'stop', none with 'error'). */
  refused: RefusedToken[];
}

export interface ReplayView {
  scenario: Scenario;
  settings: Settings;
  schedule: readonly string[];
}

/** The view's schedule on a fresh Simulation of `db`, from a reset. */
export function replay(db: LabDatabase, view: ReplayView, options: ReplayOptions = {}): Promise<Replayed> {
  return replayOnto(new Simulation(db, view.scenario, view.settings), view.schedule, options);
}

/** `schedule` on `sim` after resetting it (a search that restores a state keeps its Simulation). */
export async function replayOnto(sim: Simulation, schedule: readonly string[], options: ReplayOptions = {}): Promise<Replayed> {
  const onInapplicable = options.onInapplicable ?? 'error';
  const refused: RefusedToken[] = [];
  await sim.reset();
  options.afterReset?.(sim);
  for (const [index, token] of schedule.entries()) {
    options.beforeToken?.();
    let steps: TraceStep[];
    try {
      steps = await sim.apply(token);
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      if (onInapplicable === 'error') throw new ScheduleError(`step ${index + 1} (${token}): ${error.message}`);
      refused.push({ index, token, reason: error.message });
      if (onInapplicable === 'stop') break;
      continue;
    }
    options.applied?.(token, steps);
  }
  return { sim, refused };
}
