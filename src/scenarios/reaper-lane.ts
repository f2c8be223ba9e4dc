/**
 * Where a learner's own reaper plays (check --reaper, the page's Your SQL): on a rescuer's lane, at its
 * `rescue` steps. A scenario that has one keeps it; one without gets the lane check adds, and is played (and
 * linked) as a scenario someone could have written (a built-in one as its copy), so every place that finds a
 * scenario by its id finds the lane too.
 */
import { isClockToken } from '../sim/schedule';
import type { Scenario } from '../sim/types';
import { copySpecOf, isAuthoredId, type ScenarioSpec, scenarioFromSpec, specOf } from './authored';
import { FIX_SCENARIOS, findScenario, SCENARIOS } from './index';

/**
 * The scenario with a rescuer's lane of its own, and a `rescue` step after each step of the clock (a reaper on
 * a timer runs once time has moved). A scenario that already has a rescuer (the incidents') keeps its own
 * script and rescue steps.
 */
export function withReaperLane(scenario: Scenario): Scenario {
  if (scenario.rescuer) return scenario;
  return { ...scenario, script: withRescueSteps(scenario.script), rescuer: {} };
}

/** Steps played without the lane, as played with it: a `rescue` step after each step of the clock. */
export function withRescueSteps(tokens: readonly string[]): string[] {
  return tokens.flatMap((token) => (isClockToken(token) ? [token, 'rescue'] : [token]));
}

/** A reaper's scenario: its id, and the spec that makes it where it is a copy (null: its id says it). */
export type ReaperScenario = { id: string; spec: ScenarioSpec | null; scenario: Scenario };

/**
 * The scenario a reaper plays on: one with its rescuer's lane as it is (its id says it, spec null), or one
 * without, given the lane withReaperLane adds: a built-in one as a copy, one someone wrote as itself with the
 * lane; null when that cannot be made.
 */
export function reaperScenario(scenario: Scenario): ReaperScenario | null {
  if ((findScenario(scenario.id) ?? scenario).rescuer !== undefined) return { id: scenario.id, spec: null, scenario };
  const cached = laned.get(scenario.id);
  if (cached !== undefined) return cached;
  const lane = withReaperLane(scenario);
  const spec = isAuthoredId(scenario.id) ? { spec: specOf(lane) } : copySpecOf(lane);
  const built = 'spec' in spec ? scenarioFromSpec(spec.spec) : null;
  const result = built?.scenario && 'spec' in spec ? { id: built.scenario.id, spec: spec.spec, scenario: built.scenario } : null;
  laned.set(scenario.id, result);
  return result;
}

/** Scenarios with the lane added, by the id of the one without (each made once: a spec is checked as it is built). */
const laned = new Map<string, ReaperScenario | null>();

/** The built-in scenario whose laned copy `id` is, if it is one. */
export function lanedFrom(id: string): Scenario | undefined {
  if (!isAuthoredId(id)) return undefined;
  return [...SCENARIOS, ...FIX_SCENARIOS].find((scenario) => scenario.rescuer === undefined && reaperScenario(scenario)?.id === id);
}

/**
 * A link's schedule read in the numbers its writer used, where the lab played it with or without the lane it
 * had: its `step=N` and the index of a step that could not happen count the steps as the link has them. Written
 * by hand without the lane and played on it (onLane), never the rescue steps the lab added; written by the
 * page on the lane and played without it, its reaper cut out (offLane), the reaper's turns the lab dropped too.
 * A link played as written needs none of this.
 */
export class ScheduleAsWritten {
  /** Trace positions by the writer's count: entry N is just after the N-th step as written (entry 0 is 0). */
  private readonly ends: number[] = [0];
  /** Steps of the writer's count the lab dropped (the reaper's turns), each with the index of the token before it. */
  private readonly droppedSteps = new Map<number, number>();

  /**
   * `tokens`: the link's schedule and the one played side by side, one entry a token (`written`/`played`: its
   * index in each, null where the lab added or dropped it); `steps`: the trace it played (each step's token
   * index in the played one); `through`: how many played tokens played in full (the rest refused).
   */
  private constructor(
    private readonly tokens: readonly { written: number | null; played: number | null }[],
    steps: readonly { tokenIndex: number }[],
    through: number,
  ) {
    // A dropped turn sits before the first trace step of the token after it; the writer's trace gave it one step.
    const dropped = tokens.flatMap((token, at) => (token.played === null ? [{ at, next: this.nextPlayed(at) }] : []));
    // `position`: the trace steps played before the token at played index `tokenIndex`.
    const droppedUpTo = (tokenIndex: number, position: number) => {
      while (dropped.length > 0 && (dropped[0]?.next ?? Infinity) <= tokenIndex) {
        const turn = dropped.shift();
        if (turn) this.droppedSteps.set(this.ends.length, this.writtenBefore(turn.at));
        this.ends.push(position);
      }
    };
    for (const [index, step] of steps.entries()) {
      droppedUpTo(step.tokenIndex, index);
      if (!this.added(step.tokenIndex)) this.ends.push(index + 1);
    }
    droppedUpTo(through, steps.length);
  }

  /** A schedule written without the lane (`written`), played on it as `laned` (withRescueSteps). */
  static onLane(laned: readonly string[], steps: readonly { tokenIndex: number }[]): ScheduleAsWritten {
    let written = -1;
    const tokens = laned.map((token, played) => {
      const added = token === 'rescue' && played > 0 && isClockToken(laned[played - 1] ?? '');
      return { written: added ? null : ++written, played };
    });
    return new ScheduleAsWritten(tokens, steps, laned.length);
  }

  /**
   * A schedule written on the lane (`written`), played without its `rescue` steps. `refused`: the played index
   * of the token that could not happen, if one could not.
   */
  static offLane(written: readonly string[], steps: readonly { tokenIndex: number }[], refused: number | null): ScheduleAsWritten {
    let played = -1;
    const tokens = written.map((token, at) => ({ written: at, played: token === 'rescue' ? null : ++played }));
    return new ScheduleAsWritten(tokens, steps, refused ?? played + 1);
  }

  /** How many steps the link counts up to the last one played: the last step=N that names one. */
  get stepCount(): number {
    return this.ends.length - 1;
  }

  /**
   * Where step=N lands on the trace played: just after the N-th step as written, so every rescue step added before it
   * is shown and the reaper's turn after it is the next step; on a dropped turn, just after the step before it.
   * N must be at most stepCount.
   */
  position(step: number): number {
    const end = this.ends[step];
    if (end === undefined) throw new RangeError(`step ${step} is past the ${this.stepCount} steps as written`);
    return end;
  }

  /** step=N names a reaper's turn the lab dropped: the index in the link's schedule of the token before it; else null. */
  droppedTurn(step: number): number | null {
    return this.droppedSteps.get(step) ?? null;
  }

  /** The index in the schedule as written of the played token at `index` (an added rescue step: of the step of the clock before it). */
  writtenIndex(index: number): number {
    const at = this.tokens.findIndex((token) => token.played === index);
    return at < 0 ? 0 : Math.max(this.writtenBefore(at + 1), 0);
  }

  /** How many of the link's tokens before the played token at `index` the lab dropped. */
  droppedBefore(index: number): number {
    const at = this.tokens.findIndex((token) => token.played === index);
    return this.tokens.slice(0, at < 0 ? 0 : at).filter((token) => token.played === null).length;
  }

  /** A rescue step the lab added to the played schedule (onLane's withRescueSteps): one right after a step of the clock. */
  added(index: number): boolean {
    return this.tokens.find((token) => token.played === index)?.written === null;
  }

  /** The written index of the last token before the entry `at` that the link has (-1: none). */
  private writtenBefore(at: number): number {
    for (let index = at - 1; index >= 0; index--) {
      const written = this.tokens[index]?.written;
      if (written !== null && written !== undefined) return written;
    }
    return -1;
  }

  /** The played index of the first token played at or after the entry `at` (the played length: none). */
  private nextPlayed(at: number): number {
    for (const token of this.tokens.slice(at)) if (token.played !== null) return token.played;
    return this.tokens.filter((token) => token.played !== null).length;
  }
}
