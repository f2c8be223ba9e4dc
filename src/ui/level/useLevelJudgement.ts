import { useEffect, useMemo } from 'react';
import { judgeAt } from '../../lessons/levels';
import type { Challenge, Judgement } from '../../lessons/types';
import type { ProgressStore } from '../../store/progress-store';
import { useLab, useLabStore } from '../../store/react';

/**
 * The level's verdict on the run at the cursor, after every step (the challenge's own judge, through
 * judgeAt), and the first win recorded in the learner's progress with the hints seen by then. null while
 * the lab is not on the level's scenario or its run has not arrived (the run on screen before the level
 * opened is never judged: opening it empties the trace at once).
 */
export function useLevelJudgement(level: Challenge, progress: ProgressStore): Judgement | null {
  const lab = useLabStore();
  const loaded = useLab((s) => s.loaded);
  const scenarioId = useLab((s) => s.scenarioId);
  const steps = useLab((s) => s.steps);
  const position = useLab((s) => s.position);
  const initialRuns = useLab((s) => s.initialRuns);
  const traceSettings = useLab((s) => s.traceSettings);
  const schedule = useLab((s) => s.schedule);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the trace is rebuilt exactly when its parts (steps, settings, schedule) change
  const judgement = useMemo(() => {
    if (!loaded || scenarioId !== level.scenarioId) return null;
    return judgeAt(level, lab.getState().trace(), position, initialRuns);
  }, [lab, level, loaded, scenarioId, steps, position, initialRuns, traceSettings, schedule]);
  const won = judgement?.won === true;
  useEffect(() => {
    if (won) progress.recordChallengeWon(level.id);
  }, [won, progress, level.id]);
  return judgement;
}
