/** Read-outs the panels share, memoised on the parts of the store they depend on. */
import { useMemo } from 'react';
import { findScenario, SCENARIOS } from '../scenarios';
import type { Scenario } from '../sim/types';
import { type Snapshot, shownStepIndex, snapshotAfter } from '../store/derive';
import { useLab } from '../store/react';

export function useScenario(): Scenario {
  const id = useLab((s) => s.scenarioId);
  return findScenario(id) ?? SCENARIOS[0]!;
}

/** The state at the cursor: what the controls act on. */
export function useCursorSnapshot(): Snapshot {
  const steps = useLab((s) => s.steps);
  const position = useLab((s) => s.position);
  const initialRuns = useLab((s) => s.initialRuns);
  const initialWorkers = useLab((s) => s.initialWorkers);
  return useMemo(() => snapshotAfter(steps, position, initialRuns, initialWorkers), [steps, position, initialRuns, initialWorkers]);
}

/** The step the details explain, and the states just before and after it. */
export function useShownStep() {
  const steps = useLab((s) => s.steps);
  const position = useLab((s) => s.position);
  const selected = useLab((s) => s.selected);
  const initialRuns = useLab((s) => s.initialRuns);
  const initialWorkers = useLab((s) => s.initialWorkers);
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
