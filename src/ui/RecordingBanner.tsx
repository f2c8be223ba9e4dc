import { recordedOn, serverCommand, whyRecorded } from '../recordings';
import { useLab } from '../store/react';

/**
 * The trace on screen was recorded on a real PostgreSQL server (recordings/), at a level the page cannot
 * run: says so, and why, while it is shown. Back and Next step walk its steps; any other move needs a new
 * run, which the page makes at READ COMMITTED (the button) or a server makes at this level (the command).
 */
export function RecordingBanner() {
  const recorded = useLab((s) => s.recorded);
  const scenarioId = useLab((s) => s.scenarioId);
  const settings = useLab((s) => s.traceSettings);
  const leaveRecording = useLab((s) => s.leaveRecording);
  const level = settings.isolation;
  if (!recorded || !level) return null;
  const shown = { scenarioId, settings: { ...settings, isolation: level }, serverVersion: recorded.serverVersion };
  return (
    <section className="banner banner-recorded" aria-label="Recorded trace">
      <strong>{recordedOn(shown)}.</strong>
      <span>
        {whyRecorded(level)}. Back and Next step replay the server's steps; any other move needs a new run on a server: <code>{serverCommand(shown)}</code>
      </span>
      <button type="button" onClick={() => void leaveRecording()}>
        Run it at READ COMMITTED here
      </button>
    </section>
  );
}
