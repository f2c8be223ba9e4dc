import { useEffect } from 'react';
import { findLevel } from '../../lessons/levels';
import type { ProgressStore } from '../../store/progress-store';
import { useLabStore } from '../../store/react';

/**
 * Choosing another scenario leaves the level: the lab moves off the level's scenario. The level is read
 * when the scenario changes, not when this subscribed, so putting the next level in play and then opening
 * its scenario ("Next level") is not taken for leaving.
 */
export function useLeaveLevelWithItsScenario(progress: ProgressStore): void {
  const lab = useLabStore();
  useEffect(
    () =>
      lab.subscribe((state, previous) => {
        if (state.scenarioId === previous.scenarioId) return;
        const level = findLevel(progress.getState().progress.currentLevel ?? '');
        if (level && previous.scenarioId === level.scenarioId && state.scenarioId !== level.scenarioId) progress.setLevel(null);
      }),
    [lab, progress],
  );
}
