import type { ScenarioSpec } from '../../scenarios/authored';

/** What each part of the editor gets: the spec being written, its problems by field, and a way to change it. */
export interface PartProps {
  spec: ScenarioSpec;
  problems: Map<string, string>;
  change: (update: (spec: ScenarioSpec) => ScenarioSpec) => void;
}
