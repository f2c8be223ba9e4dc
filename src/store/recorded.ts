/**
 * While a recording is on screen (recordings/): the one move it has at the cursor, and why every other one
 * needs a new run. The controls read it to offer only the recorded move, with the reason on the others.
 */
import { offTheRecording, recording, recordingIdFor } from '../recordings';
import type { Settings, TraceStep } from '../sim/types';
import { tokensRevealed } from './script';

export interface RecordedMove {
  /** The recording's next schedule token after the cursor; null at its end. */
  next: string | null;
  /** Why another move cannot happen here, as a sentence. */
  why: string;
}

/** null when the trace is not a recording. */
export function recordedMove(scenarioId: string, traceSettings: Settings, steps: readonly TraceStep[], position: number): RecordedMove | null {
  const id = recordingIdFor(scenarioId, traceSettings);
  if (!id) return null;
  const played = recording(id);
  const next = played.schedule[tokensRevealed(steps, position)];
  const why = offTheRecording(played, next);
  return { next: next ?? null, why: `${why[0]!.toUpperCase()}${why.slice(1)}.` };
}
