/**
 * The recordings the page can show, read from their files (recorded by npm run record-isolation) and
 * checked against their plans when first asked for: a file that drifted from the shape the page reads
 * fails with what drifted, never draws something else.
 */
import type { Settings } from '../sim/types';
import { RECORDING_PLANS, type RecordingId } from './plans';
import { parseRecording, type Recording } from './recording';
import raceCasRepeatableRead from './race-cas-repeatable-read.json' with { type: 'json' };
import raceNaiveRepeatableRead from './race-naive-repeatable-read.json' with { type: 'json' };
import threeWorkersSkipLockedSerializable from './three-workers-skip-locked-serializable.json' with { type: 'json' };

const FILES: Record<RecordingId, unknown> = {
  'race-naive-repeatable-read': raceNaiveRepeatableRead,
  'race-cas-repeatable-read': raceCasRepeatableRead,
  'three-workers-skip-locked-serializable': threeWorkersSkipLockedSerializable,
};

const parsed = new Map<RecordingId, Recording>();

/** The recording with this id, checked against its plan. */
export function recording(id: RecordingId): Recording {
  const known = parsed.get(id);
  if (known) return known;
  const plan = RECORDING_PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`there is no recording "${id}"`);
  const checked = parseRecording(FILES[id], plan);
  parsed.set(id, checked);
  return checked;
}

/** The plan recorded for this scenario, claim and level, if there is one (fencing as the recording has it). */
export function recordingIdFor(scenarioId: string, settings: Settings): RecordingId | null {
  if (!settings.isolation || settings.definition) return null;
  const plan = RECORDING_PLANS.find(
    (candidate) => candidate.scenarioId === scenarioId && candidate.strategy === settings.strategy && candidate.isolation === settings.isolation,
  );
  return plan ? plan.id : null;
}

export { RECORDING_PLANS, type RecordingId } from './plans';
export { offTheRecording, type Recording, recordedOn, serverCommand, whyRecorded } from './recording';
