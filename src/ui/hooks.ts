/** Read-outs the panels share, memoised on the parts of the store they depend on. */
import { labReady } from './commands';
import { useMemo, useSyncExternalStore } from 'react';
import { findScenario, SCENARIOS } from '../scenarios';
import type { Scenario } from '../sim/types';
import { strategyDefinition } from '../strategies';
import { type ShownControls, shownControls } from '../store/disclosure';
import { type Snapshot, shownStepIndex, snapshotAfter } from '../store/derive';
import { useLab, usePanelLab } from '../store/react';
import { type RecordedMove, recordedMove } from '../store/recorded';
import { scriptCandidates, stepCountWords } from '../store/script';

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

/** While a recording is on screen: its one move at the cursor, and why no other (null for any other trace). */
export function useRecordedMove(): RecordedMove | null {
  const recorded = usePanelLab((s) => s.recorded);
  const scenarioId = usePanelLab((s) => s.scenarioId);
  const traceSettings = usePanelLab((s) => s.traceSettings);
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  return useMemo(() => recordedMove(recorded, scenarioId, traceSettings, steps, position), [recorded, scenarioId, traceSettings, steps, position]);
}

/** The step the panels explain, and the states just before and after it (one task behind the store). */
export function useShownStep() {
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const selected = usePanelLab((s) => s.selected);
  const initialRuns = usePanelLab((s) => s.initialRuns);
  const initialWorkers = usePanelLab((s) => s.initialWorkers);
  const scenarioId = usePanelLab((s) => s.scenarioId);
  const schedule = usePanelLab((s) => s.schedule);
  const over = usePanelLab((s) => s.status?.isOver === true || s.stalled);
  // A recording's moves are its own schedule's, not the scenario's script.
  const recordedLength = usePanelLab((s) => s.recorded?.schedule.length ?? null);
  return useMemo(() => {
    const index = shownStepIndex(position, selected);
    const after = snapshotAfter(steps, index === null ? 0 : index + 1, initialRuns, initialWorkers);
    const before = snapshotAfter(steps, index === null ? 0 : index, initialRuns, initialWorkers);
    const count =
      recordedLength === null
        ? stepCountWords(steps.length, scriptCandidates(findScenario(scenarioId)?.script ?? [], schedule).length, over)
        : stepCountWords(steps.length, recordedLength - schedule.length, over, 'recording');
    return { index, step: index === null ? null : (steps[index] ?? null), before, after, total: steps.length, count };
  }, [steps, position, selected, initialRuns, initialWorkers, scenarioId, schedule, over, recordedLength]);
}

/** Whether a CSS media query matches now, following it as the window changes (read at the first render: no shift). */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** A phone-sized window (app.css's narrow layout): the timeline comes before the controls. */
export const PHONE_QUERY = '(max-width: 720px)';

/**
 * The lab is working on something the learner asked for: from the click (the request is queued at once)
 * until its step is drawn everywhere (the panels follow the store one task later).
 */
export function useBusy(): boolean {
  const working = useLab((s) => s.pending > 0);
  const position = useLab((s) => s.position);
  const drawn = usePanelLab((s) => s.position);
  return working || drawn !== position;
}

/** The controls wait for the first trace (commands.ts labReady, the rule every command reads). */
export function useReady(): boolean {
  return useLab(labReady);
}

/** Which controls the page shows now: the one rule in store/disclosure.ts, fed from the store. */
export function useShownControls(): ShownControls {
  const scenario = useScenario();
  const settings = useLab((s) => s.settings);
  const schedule = useLab((s) => s.schedule);
  const intended = useLab((s) => s.intended);
  const levelMoves = useLab((s) => s.levelMoves);
  const allControls = useLab((s) => s.allControls);
  const playing = useLab((s) => s.playing);
  const rescues = useLab((s) => s.settings.definition === undefined && strategyDefinition(s.settings.strategy).rescuer !== undefined);
  return useMemo(
    () =>
      shownControls({
        scenario,
        settings,
        schedules: [schedule, intended, levelMoves],
        rescues: rescues && scenario.rescuer !== undefined,
        allControls,
        playing,
      }),
    [scenario, settings, schedule, intended, levelMoves, rescues, allControls, playing],
  );
}
