import { recordedOn, recording, recordingIdFor, serverCommand, whyRecorded } from '../recordings';
import { useLab } from '../store/react';

/**
 * The trace on screen was recorded on a real PostgreSQL server (recordings/), at a level the page cannot
 * run: says so, and why, while it is shown. Back and Next step walk its steps; any other move needs a new
 * run, which the page makes at READ COMMITTED (the button) or a server makes at this level (the command).
 */
export function RecordingBanner() {
  const scenarioId = useLab((s) => s.scenarioId);
  const settings = useLab((s) => s.traceSettings);
  const loaded = useLab((s) => s.loaded);
  const leaveRecording = useLab((s) => s.leaveRecording);
  const id = loaded ? recordingIdFor(scenarioId, settings) : null;
  if (!id || !settings.isolation) return null;
  const played = recording(id);
  return (
    <section className="banner banner-recorded" aria-label="Recorded trace">
      <strong>{recordedOn(played)}.</strong>
      <span>
        {whyRecorded(settings.isolation)}. Back and Next step replay the server's steps; any other move needs a new run on a server:{' '}
        <code>{serverCommand(played)}</code>
      </span>
      <button type="button" onClick={() => void leaveRecording()}>
        Run it at READ COMMITTED here
      </button>
    </section>
  );
}
