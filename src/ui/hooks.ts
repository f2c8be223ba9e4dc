/** Read-outs the panels share, memoised on the parts of the store they depend on. */
import { useMemo } from 'react';
import { findScenario, SCENARIOS } from '../scenarios';
import type { Scenario } from '../sim/types';
import { type Snapshot, shownStepIndex, snapshotAfter } from '../store/derive';
import { useLab, usePanelLab } from '../store/react';

export function useScenario(): Scenario {
  const id = useLab((s) => s.scenarioId);
  return findScenario(id) ?? SCENARIOS[0]!;
}

/** The state at the cursor: what the controls act on (as the panels see it, one task behind the store). */
export function useCursorSnapshot(): Snapshot {
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const initialRuns = usePanelLab((s) => s.initialRuns);
  const initialWorkers = usePanelLab((s) => s.initialWorkers);
  return useMemo(() => snapshotAfter(steps, position, initialRuns, initialWorkers), [steps, position, initialRuns, initialWorkers]);
}

/** The step the panels explain, and the states just before and after it (one task behind the store). */
export function useShownStep() {
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const selected = usePanelLab((s) => s.selected);
  const initialRuns = usePanelLab((s) => s.initialRuns);
  const initialWorkers = usePanelLab((s) => s.initialWorkers);
  return useMemo(() => {
    const index = shownStepIndex(position, selected);
    const after = snapshotAfter(steps, index === null ? 0 : index + 1, initialRuns, initialWorkers);
    const before = snapshotAfter(steps, index === null ? 0 : index, initialRuns, initialWorkers);
    return { index, step: index === null ? null : (steps[index] ?? null), before, after, total: steps.length };
  }, [steps, position, selected, initialRuns, initialWorkers]);
}

/** The controls wait for the first trace; afterwards they stay usable while requests queue. */
export function useReady(): boolean {
  return useLab((s) => s.loaded && s.enginePhase !== 'failed');
}
