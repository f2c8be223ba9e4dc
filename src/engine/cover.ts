/**
 * Complete schedules that, between them, take every step from every state a scenario can reach.
 *
 * Two schedules that reach the same state (the same rows, locks, workers, clock, waits, stuck budgets and
 * environment lane: Walk.stateKey) have the same futures, so a step taken from that state does the same
 * whichever way it was reached. The set of states and the steps between them is a graph that is far
 * smaller than the tree of schedules: heartbeat under the naive claim has over 50,000 schedules but a few
 * hundred states. Checking every edge of that graph on two databases (the ground truth: PGlite and a
 * real PostgreSQL server) checks every schedule, by induction on its length, as long as both databases
 * agree on the state each edge leads to; the comparison checks exactly that, step by step.
 *
 * The search walks each state once, depth first, and yields schedules that between them take every edge:
 * each path that ends the scenario through new states, and for an edge into a state seen before, the path
 * to here and that edge (what follows it was checked from the state already). A yielded schedule's trace
 * is the one playing it from a reset records (the walk replays prefixes from a reset): a state key that
 * missed something would show up as a trace that differs from PostgreSQL's.
 */
import type { LabDatabase } from '../db/port';
import type { Scenario, Settings } from '../sim/types';
import { type ScheduleChoice, DEFAULT_STUCK_STEP_LIMIT, type ExploredSchedule, Walk } from './enumerate';

export interface CoverOptions {
  /** Stop after this many distinct states; the answer then says it was cut. */
  maxStates?: number;
  stuckStepLimit?: number;
}

export interface CoverSummary {
  /** Distinct states reached. */
  states: number;
  /** Steps between them (each taken by at least one yielded schedule). */
  edges: number;
  /** True when maxStates stopped the search. */
  cut: boolean;
}

const DEFAULT_MAX_COVER_STATES = 20_000;

export async function* coverStateGraph(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  options: CoverOptions = {},
): AsyncGenerator<ExploredSchedule, CoverSummary> {
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit ?? DEFAULT_STUCK_STEP_LIMIT);
  const maxStates = options.maxStates ?? DEFAULT_MAX_COVER_STATES;
  const entered = new Set<string>();
  /** States whose search has finished; a state entered but not finished is on the current path. */
  const finished = new Set<string>();
  let edges = 0;
  const summary = (cut: boolean): CoverSummary => ({ states: entered.size, edges, cut });

  // Depth first with an explicit stack, as in exploreSchedules; `current` says the walk stands at the frame.
  await walk.restore([]);
  const rootKey = walk.stateKey(0);
  entered.add(rootKey);
  const stack: Frame[] = [{ prefix: [], lane: 0, key: rootKey, left: walk.choices(0), current: true, anyApplied: false }];
  if (stack[0]!.left.length === 0) {
    yield { schedule: [], trace: walk.sim.trace() };
    return summary(false);
  }
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const choice = frame.left.shift();
    if (!choice) {
      if (frame.anyApplied) {
        finished.add(frame.key);
        stack.pop();
        continue;
      }
      // Nothing applied, so the walk still stands at the frame. If only the environment lane's next
      // token was on offer, it cannot apply here: it is dropped from the lane, and the search goes on.
      if (!walk.onlyTheLaneIsLeft(frame.lane)) throw new Error(`${scenario.id}: no choice applies after ${frame.prefix.join(',')}`);
      frame.lane += 1;
      frame.left = walk.choices(frame.lane);
      if (frame.left.length === 0) {
        // An end of the scenario: its path takes every edge on the way.
        yield { schedule: frame.prefix, trace: walk.sim.trace() };
        finished.add(frame.key);
        stack.pop();
      }
      continue;
    }
    if (!frame.current) await walk.restore(frame.prefix);
    frame.current = true;
    if (!(await walk.tryApply(choice.token))) continue;
    frame.current = false;
    frame.anyApplied = true;
    edges += 1;
    const path = [...frame.prefix, choice.token];
    const childKey = walk.stateKey(choice.lane);
    if (finished.has(childKey)) {
      // Everything after this state was checked from it already: the path and this edge are enough.
      yield { schedule: path, trace: walk.sim.trace() };
    } else if (entered.has(childKey)) {
      // The child is on the path to here. Time and budgets only move forward, so a schedule cannot come
      // back to a state it passed; if it does, the state key misses something.
      throw new Error(`${scenario.id}: the state after ${path.join(',')} repeats an earlier one`);
    } else {
      entered.add(childKey);
      if (entered.size > maxStates) return summary(true);
      const left = walk.choices(choice.lane);
      if (left.length > 0) {
        stack.push({ prefix: path, lane: choice.lane, key: childKey, left, current: true, anyApplied: false });
      } else {
        yield { schedule: path, trace: walk.sim.trace() };
        finished.add(childKey);
      }
    }
  }
  return summary(false);
}

interface Frame {
  prefix: string[];
  lane: number;
  key: string;
  left: ScheduleChoice[];
  current: boolean;
  anyApplied: boolean;
}
