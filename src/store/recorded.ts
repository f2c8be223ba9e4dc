/**
 * While a recording is on screen (recordings/): the one move it has at the cursor, and why every other one
 * needs a new run. The controls read it to offer only the recorded move, with the reason on the others.
 */
import { offTheRecording, type RecordedSummary } from '../recordings';
import type { Settings, TraceStep } from '../sim/types';
import { tokensRevealed } from './script';

export interface RecordedMove {
  /** The recording's next schedule token after the cursor; null at its end. */
  next: string | null;
  /** Why another move cannot happen here, as a sentence. */
  why: string;
}

/** null when the trace is not a recording. */
export function recordedMove(
  recorded: RecordedSummary | null,
  scenarioId: string,
  traceSettings: Settings,
  steps: readonly TraceStep[],
  position: number,
): RecordedMove | null {
  if (!recorded || !traceSettings.isolation) return null;
  const next = recorded.schedule[tokensRevealed(steps, position)];
  const why = offTheRecording({ scenarioId, settings: { ...traceSettings, isolation: traceSettings.isolation }, serverVersion: recorded.serverVersion }, next);
  return { next: next ?? null, why: `${why[0]!.toUpperCase()}${why.slice(1)}.` };
}
