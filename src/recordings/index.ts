/**
 * Traces recorded on a real PostgreSQL server at the levels the page cannot run (plans.ts), as the page
 * names and finds them. Their files, with every step, are read by the engine only (files.ts).
 */
import type { Settings } from '../sim/types';
import { RECORDING_PLANS, type RecordingId } from './plans';

/** The plan recorded for this scenario, claim and level, if there is one (fencing as the recording has it). */
export function recordingIdFor(scenarioId: string, settings: Settings): RecordingId | null {
  if (!settings.isolation || settings.definition) return null;
  const plan = RECORDING_PLANS.find(
    (candidate) => candidate.scenarioId === scenarioId && candidate.strategy === settings.strategy && candidate.isolation === settings.isolation,
  );
  return plan ? plan.id : null;
}

export { RECORDING_PLANS, type RecordingId } from './plans';
export { offTheRecording, type RecordedSummary, type Recording, recordedOn, serverCommand, whyRecorded } from './recording';
