import type { ScenarioSpec } from '../../scenarios/authored';

/** What each part of the editor gets: the spec being written, its problems by field, and a way to change it. */
export interface PartProps {
  spec: ScenarioSpec;
  problems: Map<string, string>;
  change: (update: (spec: ScenarioSpec) => ScenarioSpec) => void;
}

/** What the editor opens with: the scenario on screen if someone wrote it (else the usual setup), or a copy of the built-in one. */
export type EditorStart = 'own' | 'copy';
