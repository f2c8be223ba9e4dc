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
 * is the one playing it from a reset records (on each backtrack the database replays, from a reset, the
 * calls that led to the state the walk goes back to: Walk.restoreMark): a state key that missed something
 * would show up as a trace that differs from PostgreSQL's.
 */
import type { LabDatabase } from '../db/port';
import type { RunRow, Scenario, Settings, Trace, TraceStep } from '../sim/types';
import { type ScheduleChoice, DEFAULT_STUCK_STEP_LIMIT, type ExploredSchedule, Walk, type WalkMark } from './enumerate';
import { anomalyDetectorFor } from './simulation';

export interface CoverOptions {
  /** Stop after this many distinct states; the answer then says it was cut. */
  maxStates?: number;
  stuckStepLimit?: number;
  /** Told of every edge the walk takes, with what the step did (see StateGraph). */
  onEdge?: (edge: GraphEdge) => void;
}

/** One step between two states, as the walk took it. */
export interface GraphEdge {
  /** The state it leaves and the one it leads to (Walk.stateKey). */
  from: string;
  to: string;
  token: string;
  /** The steps the token took, as recorded on the way the walk first reached `from`. */
  steps: TraceStep[];
  /** The committed table in the state it leads to. */
  runsAfter: RunRow[];
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
  // Each backtrack goes back to a frame's mark: on PGlite the database's calls again, not the simulation's work.
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit ?? DEFAULT_STUCK_STEP_LIMIT, { marks: true });
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
  const stack: Frame[] = [{ prefix: [], lane: 0, key: rootKey, left: walk.choices(0), mark: walk.mark(), current: true, anyApplied: false }];
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
    if (!frame.current) await walk.restoreMark(frame.mark);
    frame.current = true;
    const stepsBefore = walk.sim.trace().steps.length;
    if (!(await walk.tryApply(choice.token))) continue;
    frame.current = false;
    frame.anyApplied = true;
    edges += 1;
    const path = [...frame.prefix, choice.token];
    const childKey = walk.stateKey(choice.lane);
    if (options.onEdge) {
      const after = walk.sim.trace();
      options.onEdge({ from: frame.key, to: childKey, token: choice.token, steps: after.steps.slice(stepsBefore), runsAfter: after.finalRuns });
    }
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
        stack.push({ prefix: path, lane: choice.lane, key: childKey, left, mark: walk.mark(), current: true, anyApplied: false });
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
  /** Where the walk stood when it entered the frame's state (the walk's restores come back to it). */
  mark: WalkMark;
  current: boolean;
  anyApplied: boolean;
}

/**
 * The graph a cover walked (coverStateGraph's onEdge), with what every step did: enough to check another
 * database against it by schedules of its own choosing, with nothing played again here. A state's key
 * decides its future (see the module comment), so a step from a state does on this database what it did
 * when the walk took it, whichever way a schedule reached that state; only the step numbers and the
 * anomalies, which count from the start, depend on the way (pathTrace counts them again).
 */
export class StateGraph {
  /** Each state's number (by its key) and the edges out of each, by number: the cover's search works on numbers. */
  private readonly numbers = new Map<string, number>();
  private readonly out: { edge: GraphEdge; to: number; id: number }[][] = [];
  private edgeCount = 0;

  add(edge: GraphEdge): void {
    const from = this.number(edge.from);
    this.out[from]!.push({ edge, to: this.number(edge.to), id: this.edgeCount });
    this.edgeCount += 1;
  }

  private number(key: string): number {
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = this.out.length;
      this.numbers.set(key, n);
      this.out.push([]);
    }
    return n;
  }

  get edges(): number {
    return this.edgeCount;
  }

  /**
   * Paths from the first state that take every edge at least once, each as long as it still takes an edge
   * no earlier path took: greedily, the path that takes the most such edges (the fewest tokens of those).
   * Far fewer schedules and tokens than the walk's own (coverStateGraph yields a schedule for every edge into
   * a state already searched, from a reset): heartbeat under the naive claim, fencing off, 1,214 paths of
   * 14,733 tokens against 2,061 schedules of 24,150.
   */
  pathCover(): GraphEdge[][] {
    if (this.out.length === 0) return [];
    const order = this.topologicalOrder();
    const taken = new Uint8Array(this.edgeCount);
    const gain = new Int32Array(this.out.length);
    const length = new Int32Array(this.out.length);
    const next = new Int32Array(this.out.length);
    const paths: GraphEdge[][] = [];
    for (;;) {
      // From the last state back: the most untaken edges a path from each state can take, and the fewest tokens for that.
      for (let i = order.length - 1; i >= 0; i--) {
        const state = order[i]!;
        let [bestGain, bestLength, bestNext] = [0, 0, -1];
        const edges = this.out[state]!;
        for (let e = 0; e < edges.length; e++) {
          const { to, id } = edges[e]!;
          const g = gain[to]! + (taken[id] ? 0 : 1);
          if (g === 0) continue;
          const l = length[to]! + 1;
          if (g > bestGain || (g === bestGain && l < bestLength)) [bestGain, bestLength, bestNext] = [g, l, e];
        }
        gain[state] = bestGain;
        length[state] = bestLength;
        next[state] = bestNext;
      }
      if (gain[0] === 0) return paths;
      const path: GraphEdge[] = [];
      for (let state = 0; next[state]! >= 0; ) {
        const { edge, to, id } = this.out[state]![next[state]!]!;
        path.push(edge);
        taken[id] = 1;
        state = to;
      }
      paths.push(path);
    }
  }

  /** The states in an order where every edge goes forward (the walk never comes back to a state it passed); the first state first. */
  private topologicalOrder(): number[] {
    const done = new Uint8Array(this.out.length);
    const postorder: number[] = [];
    const stack: { state: number; next: number }[] = [{ state: 0, next: 0 }];
    done[0] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const out = this.out[top.state]![top.next++];
      if (!out) {
        postorder.push(top.state);
        stack.pop();
      } else if (!done[out.to]) {
        done[out.to] = 1;
        stack.push({ state: out.to, next: 0 });
      }
    }
    return postorder.reverse();
  }
}

/**
 * The trace this database records playing `path` from a reset: each edge's steps as the walk recorded them,
 * numbered along the path, with the anomalies the checkers find along it.
 */
export function pathTrace(scenario: Scenario, settings: Settings, path: readonly GraphEdge[], database: Trace['database']): Trace {
  const detector = anomalyDetectorFor(settings);
  const steps: TraceStep[] = [];
  for (const [tokenIndex, edge] of path.entries()) {
    for (const { anomalies: _alongTheWalk, ...step } of edge.steps) {
      const recorded = { ...step, index: steps.length, tokenIndex };
      steps.push({ ...recorded, anomalies: detector.observe(recorded, steps) });
    }
  }
  return {
    scenario: scenario.id,
    settings: { ...settings },
    schedule: path.map((edge) => edge.token),
    steps,
    anomalies: steps.at(-1)?.anomalies ?? [],
    finalRuns: path.at(-1)?.runsAfter ?? [],
    database,
  };
}
