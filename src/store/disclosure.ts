/**
 * Progressive disclosure: which of the lab's controls the page shows. One rule, read by every control
 * that may be folded away (ui/useShownControls.ts), and derived from data, never from a component's own
 * idea: the scenario's script and the schedule in the lab (what it moves: the clock, a pause, a crash, the
 * operator), the scenario's story (the strategies it compares, an incident's fix, the concepts it teaches) and the settings in
 * the lab (a chapter, a level or a link that chose another strategy or fencing shows that picker). A link
 * therefore always shows every control its schedule uses. "All controls" (the free lab) shows everything.
 */
import { isAuthoredId } from '../scenarios/authored';
import { defaultSettings } from '../scenarios';
import { parseToken, type Token } from '../sim/schedule';
import type { Scenario, Settings } from '../sim/types';
import { LIMIT_STRATEGY_IDS } from '../strategies';

export interface DisclosureInput {
  scenario: Scenario;
  settings: Settings;
  /** Every schedule in the lab: the one played, the one the learner built (they differ after Back), and the moves of the level in play. */
  schedules: readonly (readonly string[])[];
  /** The strategy in the lab runs the queue's rescuer as its own process, and the scenario has one. */
  rescues: boolean;
  /** The learner switched on "All controls". */
  allControls: boolean;
  playing: boolean;
}

export interface ShownControls {
  strategy: boolean;
  fencing: boolean;
  /** The clock: its reading, Advance clock, To lease expiry; and the timeline's "time to scale". */
  clock: boolean;
  /** Pause and Resume of each worker. */
  pause: boolean;
  crash: boolean;
  /** Restart of a crashed worker under its old name. */
  restart: boolean;
  /** Each worker's own group in the toolbar (Step worker X beside its Pause or Crash); without them a worker steps from its program's line. */
  workerGroups: boolean;
  /** The operator's menu: cancel a run, kill its worker, step the queue's rescuer. */
  operator: boolean;
  speed: boolean;
  /** The free lab's tools: write a scenario, export, the theme, the keyboard shortcuts. */
  tools: boolean;
}

const EVERYTHING: ShownControls = {
  strategy: true,
  fencing: true,
  clock: true,
  pause: true,
  crash: true,
  restart: true,
  workerGroups: true,
  operator: true,
  speed: true,
  tools: true,
};

function tokenKinds(scenario: Scenario, schedules: DisclosureInput['schedules']): Set<Token['kind']> {
  const kinds = new Set<Token['kind']>();
  for (const schedule of [scenario.script, ...schedules])
    for (const text of schedule) {
      try {
        kinds.add(parseToken(text).kind);
      } catch {
        // A token the engine could not play shows no control (the link's own notice says why).
      }
    }
  return kinds;
}

export function shownControls(input: DisclosureInput): ShownControls {
  const { scenario, settings } = input;
  // A scenario someone wrote is the free lab already: it may use anything.
  if (input.allControls || isAuthoredId(scenario.id)) return EVERYTHING;
  const kinds = tokenKinds(scenario, input.schedules);
  const defaults = defaultSettings(scenario);
  const clock = kinds.has('advance');
  const pause = kinds.has('pause') || kinds.has('resume');
  const crash = kinds.has('crash');
  const restart = kinds.has('restart');
  // A worker can outlive its lease only when time passes, or it stops, or dies: then fencing matters.
  const staleWriterPossible = clock || pause || crash;
  // The strategies the scenario's story compares: its own, those it has words for, an incident's fix.
  const fix = scenario.incident?.fix;
  const compared = new Set([defaults.strategy, ...Object.keys(scenario.summaries ?? {}), ...(fix ? [fix.strategy] : [])]);
  return {
    // An incident is a named queue's story: the picker names the queue it runs under. A scenario that
    // opens under a limit's claim compares it with the claims that have no such limit.
    strategy:
      compared.size > 1 ||
      scenario.incident !== undefined ||
      LIMIT_STRATEGY_IDS.includes(defaults.strategy) ||
      settings.strategy !== defaults.strategy ||
      settings.definition !== undefined,
    fencing:
      settings.fencing !== defaults.fencing ||
      scenario.concepts.includes('fencing') ||
      (fix !== undefined && fix.fencing !== defaults.fencing) ||
      staleWriterPossible,
    clock,
    pause,
    crash,
    restart,
    workerGroups: pause || crash || restart,
    operator: kinds.has('cancel') || kinds.has('kill') || kinds.has('rescue') || input.rescues,
    speed: input.playing,
    tools: false,
  };
}
