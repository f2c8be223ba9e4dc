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
 * A schedule written without the lane and played on it (withRescueSteps), read in the numbers its writer used:
 * a hand-written link's `step=N` and the index of a step that could not happen count the steps as written,
 * never the rescue steps the lab added. A link the page or check writes carries the lane and needs none of this.
 */
export class ScheduleAsWritten {
  /** Trace positions by the writer's count: entry N is just after the N-th trace step of a written step (entry 0 is 0). */
  private readonly ends: number[];

  /** `laned`: the schedule as played on the lane; `steps`: the trace it played (each step's token index in `laned`). */
  constructor(
    private readonly laned: readonly string[],
    steps: readonly { tokenIndex: number }[],
  ) {
    this.ends = [0];
    for (const [index, step] of steps.entries()) if (!this.added(step.tokenIndex)) this.ends.push(index + 1);
  }

  /** How many trace steps the written steps played: the last step=N that names one. */
  get stepCount(): number {
    return this.ends.length - 1;
  }

  /**
   * Where step=N lands on the lane: just after the N-th step as written, so every rescue step added before it
   * is shown and the reaper's turn after it is the next step. N must be at most stepCount.
   */
  position(step: number): number {
    const end = this.ends[step];
    if (end === undefined) throw new RangeError(`step ${step} is past the ${this.stepCount} steps as written`);
    return end;
  }

  /** The index in the schedule as written of the token at `index` on the lane (an added rescue step: of the step of the clock before it). */
  writtenIndex(index: number): number {
    let written = -1;
    for (let at = 0; at <= index && at < this.laned.length; at++) if (!this.added(at)) written++;
    return Math.max(written, 0);
  }

  /** A rescue step withRescueSteps added: one right after a step of the clock. */
  added(index: number): boolean {
    return this.laned[index] === 'rescue' && index > 0 && isClockToken(this.laned[index - 1] ?? '');
  }
}
