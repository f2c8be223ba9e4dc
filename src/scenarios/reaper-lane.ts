/**
 * Where a learner's own reaper plays (check --reaper, the page's Your SQL): on a rescuer's lane, at its
 * `rescue` steps. A scenario that has one keeps it; one without gets the lane check adds, and is played (and
 * linked) as a scenario someone could have written (a built-in one as its copy), so every place that finds a
 * scenario by its id finds the lane too.
 */
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
  return tokens.flatMap((token) => (/^\+\d/.test(token) ? [token, 'rescue'] : [token]));
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
