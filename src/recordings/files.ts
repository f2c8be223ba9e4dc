/**
 * The recordings' files (recorded by npm run record-isolation), read and checked against their plans when
 * first asked for: a file that drifted from the shape the page reads fails with what drifted, never draws
 * something else. Only the engine's side imports this (with every step, it is most of a hundred kilobytes):
 * the page learns a recording's version and schedule from the engine's answer (LoadResult.recorded).
 */
import { RECORDING_PLANS, type RecordingId } from './plans';
import { parseRecording, type Recording } from './recording';
import raceCasRepeatableRead from './race-cas-repeatable-read.json' with { type: 'json' };
import raceNaiveRepeatableRead from './race-naive-repeatable-read.json' with { type: 'json' };
import tenantCapRepeatableRead from './tenant-cap-repeatable-read.json' with { type: 'json' };
import tenantCapSerializable from './tenant-cap-serializable.json' with { type: 'json' };
import threeWorkersSkipLockedSerializable from './three-workers-skip-locked-serializable.json' with { type: 'json' };

const FILES: Record<RecordingId, unknown> = {
  'race-naive-repeatable-read': raceNaiveRepeatableRead,
  'race-cas-repeatable-read': raceCasRepeatableRead,
  'three-workers-skip-locked-serializable': threeWorkersSkipLockedSerializable,
  'tenant-cap-repeatable-read': tenantCapRepeatableRead,
  'tenant-cap-serializable': tenantCapSerializable,
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
