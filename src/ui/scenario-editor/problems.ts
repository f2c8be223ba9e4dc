/**
 * The editor's view of a spec's problems: scenarioFromSpec's (defineScenario's rules), keyed by the field
 * the editor shows them under. The scenario's "summary" is the editor's two description lines.
 */
import { scenarioFromSpec, type ScenarioSpec } from '../../scenarios/authored';
import type { Scenario } from '../../sim/types';

export interface Checked {
  scenario: Scenario | null;
  /** The first problem of each field, by the editor's field name (title, description, runs.0.runId…). */
  byField: Map<string, string>;
}

export function checkSpec(spec: ScenarioSpec): Checked {
  const result = scenarioFromSpec(spec);
  const byField = new Map<string, string>();
  for (const problem of result.problems) {
    const field = problem.field === 'summary' ? 'description' : problem.field;
    if (!byField.has(field)) byField.set(field, `${problem.message[0]?.toUpperCase() ?? ''}${problem.message.slice(1)}.`);
  }
  return { scenario: result.scenario, byField };
}
