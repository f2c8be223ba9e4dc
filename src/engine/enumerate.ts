/**
 * Schedules of a scenario, enumerated: every complete one (depth-first), or random ones from a seed.
 *
 * At each point the choices are "which worker that can move steps next" and "the next environment
 * token": the script's clock moves and faults (+N, pause:, resume:, crash:, cancel:, kill:), kept in the
 * script's order as their own lane. When no worker can move and the lane is empty, but the clock can free
 * someone (a paused worker's timed resume), the clock moves to that moment. A stuck worker would
 * heartbeat forever, so it gets a step budget. Exploring a sibling goes back to the prefix (on PGlite by
 * the walk's mark: the database's calls from a reset again, not the simulation's work; on a server by
 * playing the prefix from a reset), so the whole search costs about as much as playing every schedule once.
 * Everything is deterministic: the same inputs give the same schedules in the same order.
 */
import type { LabDatabase } from '../db/port';
import { seededRandom } from '../sim/random';
import { isWorkerToken, MAX_SCHEDULE_LENGTH, ScheduleError } from '../sim/schedule';
import type { Scenario, Settings, Trace, WorkerId } from '../sim/types';
import { replayOnto } from './replay';
import { Simulation, type SimulationState } from './simulation';

export interface EnumerateOptions {
  /** Stop after this many complete schedules; the answer then says it was cut. */
  limit?: number;
  /** Steps a stuck worker (spec.stuck) may take in one schedule. */
  stuckStepLimit?: number;
}

export interface ExploredSchedule {
  /** The tokens applied, in order: replayable with runSchedule. */
  schedule: string[];
  /** The trace of that schedule, as runSchedule would record it on this database. */
  trace: Trace;
}

export interface Enumeration {
  schedules: ExploredSchedule[];
  /** True when the limit stopped the search before every schedule was found. */
  cut: boolean;
}

const DEFAULT_LIMIT = 100_000;
/**
 * How often a search plays a schedule on a server before it gives up waiting for the server to let waiters
 * woken at once go on oldest first (see Walk.playInTurn). Under load it let a younger one in first in about
 * 1 play of 20 (corpus 19 in three-workers, 13 of 300 plays with a load average of 19 on 2 cores).
 */
const IN_TURN_PLAYS = 40;

/** A schedule that could not be played again as it was: the message names it. */
class ReplayFailed extends Error {
  override name = 'ReplayFailed';
  readonly userFacing = true;
}

export const DEFAULT_STUCK_STEP_LIMIT = 5;

/** A way to move on from the current point, and where the environment lane stands after it. */
export interface ScheduleChoice {
  token: string;
  lane: number;
}

/** The scenario's script minus its worker steps: what happens to the workers, in script order. */
export function environmentLane(scenario: Scenario): string[] {
  return scenario.script.filter((token) => !isWorkerToken(token));
}

export async function enumerateSchedules(db: LabDatabase, scenario: Scenario, settings: Settings, options: EnumerateOptions = {}): Promise<Enumeration> {
  const schedules: ExploredSchedule[] = [];
  const explorer = exploreSchedules(db, scenario, settings, options);
  for (;;) {
    const next = await explorer.next();
    if (next.done) return { schedules, cut: next.value.cut };
    schedules.push(next.value);
  }
}

/** Every complete schedule, depth first, workers in name order before the environment lane. */
export async function* exploreSchedules(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  options: EnumerateOptions = {},
): AsyncGenerator<ExploredSchedule, { cut: boolean }> {
  // Each backtrack goes back to a frame's mark: on PGlite the database's calls again, not the simulation's work.
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit ?? DEFAULT_STUCK_STEP_LIMIT, { marks: true });
  const limit = options.limit ?? DEFAULT_LIMIT;
  let found = 0;
  // Depth-first with an explicit stack: each frame is a point in the tree and the choices not yet tried
  // there. `current` says the simulation still stands at that point (nothing below it was explored yet).
  await walk.restore([]);
  const root: Frame = { mark: walk.mark(), lane: 0, left: walk.choices(0), current: true };
  if (root.left.length === 0) {
    // Nothing can happen at all: the empty schedule is the only one.
    await walk.sim.conclude();
    yield { schedule: [], trace: walk.sim.trace() };
    return { cut: false };
  }
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    let complete = false;
    const choice = frame.left.shift();
    if (!choice) {
      stack.pop();
      continue;
    }
    if (!frame.current) await walk.restoreMark(frame.mark);
    frame.current = true;
    if (await walk.tryApply(choice.token)) {
      frame.current = false;
      const left = walk.choices(choice.lane);
      // A mark copies the simulation's state: taken only where the search will come back.
      if (left.length > 0) stack.push({ mark: walk.mark(), lane: choice.lane, left, current: true });
      else complete = true;
    } else if (frame.left.length === 0 && walk.onlyTheLaneIsLeft(frame.lane)) {
      // Nobody can move and the next environment token cannot apply: drop it from the lane.
      frame.lane += 1;
      frame.left = walk.choices(frame.lane);
      complete = frame.left.length === 0;
    }
    if (!complete) continue;
    if (found === limit) return { cut: true };
    found += 1;
    await walk.sim.conclude();
    yield { schedule: walk.applied(), trace: walk.sim.trace() };
  }
  return { cut: false };
}

interface Frame {
  /** The point in the tree: its tokens from the reset, and the way back to it. */
  mark: WalkMark;
  lane: number;
  left: ScheduleChoice[];
  current: boolean;
}

/** `count` random complete schedules: each step picks uniformly among the choices, with a seeded generator. */
export async function seededSchedules(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  count: number,
  seed: number,
  options: Pick<EnumerateOptions, 'stuckStepLimit'> & {
    /** Called with each schedule as it is found; with it, the schedules are not also kept and returned. */
    onSchedule?: (explored: ExploredSchedule) => void;
  } = {},
): Promise<ExploredSchedule[]> {
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit ?? DEFAULT_STUCK_STEP_LIMIT);
  const random = seededRandom(seed);
  const out: ExploredSchedule[] = [];
  for (let i = 0; i < count; i++) {
    await walk.restore([]);
    const schedule: string[] = [];
    let lane = 0;
    while (schedule.length < MAX_SCHEDULE_LENGTH) {
      const choices = walk.choices(lane);
      if (choices.length === 0) break;
      const moved = await tryInRandomOrder(walk, choices, random);
      if (moved) {
        schedule.push(moved.token);
        lane = moved.lane;
      } else if (walk.onlyTheLaneIsLeft(lane)) {
        // Only the environment token was on offer and it cannot apply: drop it from the lane.
        lane += 1;
      } else {
        throw new Error(`no choice applies after ${schedule.join(',')}`);
      }
    }
    if (walk.choices(lane).length === 0) await walk.sim.conclude();
    const explored = { schedule, trace: walk.sim.trace() };
    if (options.onSchedule) options.onSchedule(explored);
    else out.push(explored);
  }
  return out;
}

/** Picks a choice at random; one that cannot apply now is struck off and another is picked. */
async function tryInRandomOrder(walk: Walk, choices: ScheduleChoice[], random: () => number): Promise<ScheduleChoice | null> {
  const left = [...choices];
  while (left.length > 0) {
    const [choice] = left.splice(Math.floor(random() * left.length), 1);
    if (choice && (await walk.tryApply(choice.token))) return choice;
  }
  return null;
}

export interface WalkOptions {
  /** Restores to a mark replay the database's calls and keep the simulation's state (see Walk.mark). */
  marks?: boolean;
}

/** A point a walk stood at (Walk.mark). */
export interface WalkMark {
  /** The tokens applied from the reset to there. */
  readonly schedule: readonly string[];
  /** Which reset of the walk it follows, how many of the walk's database calls since led there, and the simulation's state there (null without marks). */
  readonly reset: number;
  readonly calls: number;
  readonly state: SimulationState | null;
}

/** One call of the simulation to its database: a method of LabDatabase and its arguments. */
interface DatabaseCall {
  method: keyof LabDatabase;
  args: unknown[];
}

/** `db`, with each call to one of its methods appended to `calls` before it is made. */
function recordingCalls(db: LabDatabase, calls: DatabaseCall[]): LabDatabase {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ method: property as keyof LabDatabase, args });
        return value.apply(target, args);
      };
    },
  });
}

/**
 * One simulation and the rules for what may happen next in it: the building block of the enumerations
 * above (and of anything else that walks the tree of schedules, such as the explorer's memoised search).
 */
export class Walk {
  readonly sim: Simulation;
  private readonly lane: string[];
  private readonly stuck: Set<WorkerId>;
  private schedule: string[] = [];
  /**
   * With marks (see mark()): every call the simulation made to its database since the last reset, in
   * order. Null without them, or on a database that may not answer the same calls the same way twice.
   */
  private readonly calls: DatabaseCall[] | null;
  /** Resets so far (restore() and playInTurn make them): a mark is good until the next one. */
  private resets = 0;

  constructor(
    private readonly db: LabDatabase,
    scenario: Scenario,
    settings: Settings,
    private readonly stuckStepLimit: number = DEFAULT_STUCK_STEP_LIMIT,
    { marks = false }: WalkOptions = {},
  ) {
    // PGlite answers the same calls the same way (one session, nothing else on it); a server may let waiters
    // in out of turn (wakeOrder), so there the same calls need not lead to the same state: a mark replays the schedule.
    this.calls = marks && db.kind === 'pglite' ? [] : null;
    this.sim = new Simulation(this.calls ? recordingCalls(db, this.calls) : db, scenario, settings);
    this.lane = environmentLane(scenario);
    this.stuck = new Set(scenario.workers.filter((w) => w.stuck).map((w) => w.id));
  }

  /**
   * Back to the point after `prefix` (every token of which is known to apply). Played again where the
   * server let a waiter in out of turn (see playInTurn); a token that no longer applies names the schedule.
   */
  async restore(prefix: readonly string[]): Promise<void> {
    await this.playInTurn(prefix);
  }

  /**
   * Where the walk stands, to come back to with restoreMark() from any point after it (before the next
   * restore() or a restoreMark() to an earlier mark).
   */
  mark(): WalkMark {
    return { schedule: [...this.schedule], reset: this.resets, calls: this.calls?.length ?? 0, state: this.calls ? this.sim.snapshot() : null };
  }

  /**
   * Back to a mark. With marks on, the database gets the very calls that led there from the reset, in order
   * (the same work as playing the schedule again, on a database that answers the same calls the same way:
   * PGlite), and the simulation its state at the mark instead of working its way there again; the steps,
   * states and schedules are those of restore(mark's schedule). Without marks, that restore.
   */
  async restoreMark(mark: WalkMark): Promise<void> {
    if (!this.calls || !mark.state) {
      await this.restore(mark.schedule);
      return;
    }
    // The calls since a later reset are not the ones that led to the mark.
    if (mark.reset !== this.resets || mark.calls > this.calls.length) throw new Error('a walk came back to a mark it had left by a reset');
    this.calls.length = mark.calls;
    for (const { method, args } of this.calls) await (this.db[method] as (...args: unknown[]) => unknown).apply(this.db, args);
    this.sim.restoreState(mark.state);
    this.schedule = [...mark.schedule];
  }

  /** Applies the token, or returns false, changing nothing, where it cannot apply now. */
  async tryApply(token: string): Promise<boolean> {
    const callsBefore = this.calls?.length ?? 0;
    try {
      await this.sim.apply(token);
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      // Nothing changed, as a replay that never tried the token would show.
      if (this.calls) this.calls.length = callsBefore;
      return false;
    }
    this.schedule.push(token);
    if (this.sim.overtaken()) await this.playInTurn(this.schedule);
    return true;
  }

  /**
   * Plays `tokens` from a reset until no commit let a waiter in ahead of an older one (Simulation.overtaken):
   * the order PGlite follows and a real server usually takes. A play where the server chose otherwise
   * really happened, but the same tokens could lead elsewhere on the next play, so a search that restores
   * states by replaying them could not stand on it. PGlite always plays in turn, at once.
   */
  private async playInTurn(tokens: readonly string[]): Promise<void> {
    const schedule = [...tokens];
    for (let play = 1; ; play++) {
      this.schedule = [];
      // The reset begins the calls a mark replays.
      this.resets += 1;
      if (this.calls) this.calls.length = 0;
      const { refused } = await replayOnto(this.sim, schedule, { onInapplicable: 'stop', applied: (token) => this.schedule.push(token) });
      if (!this.sim.overtaken()) {
        if (refused[0]) throw new ReplayFailed(`schedule ${schedule.join(',')} did not play again as it played before: ${refused[0].reason}`);
        return;
      }
      if (play === IN_TURN_PLAYS) {
        throw new ReplayFailed(
          `schedule ${schedule.join(',')}: in ${IN_TURN_PLAYS} plays the server never let the statements one commit woke go on in the order they began waiting (the lab's order), so its outcomes cannot be counted`,
        );
      }
    }
  }

  /** The ways on from here, with the environment lane at `lane`. None: the schedule is complete. */
  choices(lane: number): ScheduleChoice[] {
    const workers = this.sim.movable().filter((id) => this.withinBudget(id));
    const out: ScheduleChoice[] = workers.map((token) => ({ token, lane }));
    const next = this.lane[lane];
    if (next !== undefined) return [...out, { token: next, lane: lane + 1 }];
    if (out.length > 0) return out;
    // Nobody can move and the script has nothing left: only the clock can change things now.
    if (this.sim.isOver() || this.sim.movable().length > 0) return [];
    const at = this.sim.nextEventSeconds();
    return at === null ? [] : [{ token: `+${at - this.sim.clock}`, lane }];
  }

  /** The tokens applied since the last restore. */
  applied(): string[] {
    return [...this.schedule];
  }

  /** Whether the lane's next token is the only choice here (so if it cannot apply, it can only be skipped). */
  onlyTheLaneIsLeft(lane: number): boolean {
    return this.lane[lane] !== undefined && this.sim.movable().filter((id) => this.withinBudget(id)).length === 0;
  }

  /**
   * Everything that decides what can happen from here, with the environment lane at `lane`: the rows,
   * locks, workers, clock and waits (the simulation's state key), the stuck workers' budgets, and the lane.
   */
  stateKey(lane: number): string {
    return `${lane}|${this.budgetKey()}|${this.sim.stateKey()}`;
  }

  /** What the stuck workers' budgets leave open from here, as text: part of what decides the future. */
  private budgetKey(): string {
    return [...this.stuck].map((id) => `${id}:${this.stepsOf(id)}`).join(',');
  }

  private stepsOf(id: WorkerId): number {
    return this.schedule.filter((token) => token === id).length;
  }

  private withinBudget(id: WorkerId): boolean {
    return !this.stuck.has(id) || this.stepsOf(id) < this.stuckStepLimit;
  }
}
