import type { Challenge } from '../../lessons/types';
import type { LabStore } from '../../store/lab-store';
import type { ProgressStore } from '../../store/progress-store';

/**
 * Puts the lab in a level: the level in play first, then its scenario with its claim and fencing from a
 * fresh start (in that order, so the scenario's change is not taken for leaving the level).
 */
export function enterLevel(progress: ProgressStore, lab: LabStore, level: Challenge): void {
  progress.setLevel(level.id);
  void lab.getState().openScenarioAt({ scenarioId: level.scenarioId, settings: { ...level.settings }, schedule: [], upTo: null });
}
