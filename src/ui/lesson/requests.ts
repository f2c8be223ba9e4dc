/** Builds the "Open in the lab" request for a narration step. */
import { findScenario } from '../../scenarios';
import type { Chapter, NarrationStep, OpenScenarioRequest } from '../../lessons/types';

export function narrationRequest(chapter: Chapter, step: NarrationStep): OpenScenarioRequest | null {
  const scenarioId = step.mark?.scenarioId ?? chapter.scenarioId;
  if (scenarioId === null) return null;
  const scenario = findScenario(scenarioId);
  const settings = step.mark?.settings ?? chapter.settings;
  if (!scenario || !settings) return null;
  return {
    scenarioId,
    settings: { ...settings },
    schedule: [...(step.mark?.schedule ?? scenario.script)],
    position: step.mark?.tokenIndex ?? null,
  };
}

/** "step 4 of the schedule (B)" for a button label. */
export function positionLabel(request: OpenScenarioRequest): string {
  if (request.position === null) return 'at the start';
  const token = request.schedule[request.position];
  return `at schedule step ${request.position + 1}${token ? ` (${token})` : ''}`;
}
