import { formatSeconds } from '../../charts/draw';
import { allDone, type BackpressureState, lastShowable, BACKPRESSURE_SPEEDS, simulatedShare } from '../../store/backpressure-store';
import { useBackpressure } from './context';

/** What the simulation is doing, with how far it has got while it runs (it takes seconds on a busy machine). */
function statusWords(phase: BackpressureState['phase'], error: string | null, share: number): string {
  if (phase === 'starting') return 'Starting Postgres…';
  if (phase === 'running') return `Simulating on Postgres… ${Math.floor(share * 100)}%`;
  return phase === 'failed' ? `Failed: ${error}` : '';
}

export function Controls() {
  const s = useBackpressure((state) => state);
  const end = lastShowable(s.lanes);
  const done = allDone(s.lanes);
  const computing = s.phase === 'starting' || s.phase === 'running';
  const share = simulatedShare(s.lanes);
  return (
    <fieldset className="bp-controls" aria-label="Playback">
      <button
        type="button"
        className="primary"
        aria-keyshortcuts="Space"
        onClick={() => (s.playing ? s.pause() : s.play())}
        disabled={s.lanes.fifo.ticks.length === 0}
      >
        {s.playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" aria-keyshortcuts="ArrowRight" onClick={() => s.step()} disabled={s.playing || s.cursor >= end}>
        Step
      </button>
      <button type="button" onClick={() => s.toEnd()} disabled={s.playing || s.cursor >= end}>
        To end
      </button>
      <button type="button" aria-keyshortcuts="R" onClick={() => s.rewind()} disabled={s.playing || s.cursor === 0}>
        Restart
      </button>
      <label className="bp-speed">
        Speed{' '}
        <select value={s.speed} onChange={(e) => s.setSpeed(Number(e.target.value))}>
          {BACKPRESSURE_SPEEDS.map((speed) => (
            <option key={speed} value={speed}>
              {speed} s per second
            </option>
          ))}
        </select>
      </label>
      <input
        className="bp-slider"
        type="range"
        min={0}
        max={Math.max(1, end)}
        value={s.cursor}
        onChange={(e) => s.seek(Number(e.target.value))}
        aria-label="Second shown"
      />
      <output className="bp-clock" aria-live="off">
        {formatSeconds(s.cursor)} of {done ? formatSeconds(end) : `${formatSeconds(end)}…`}
      </output>
      <output className="bp-status">{statusWords(s.phase, s.error, share)}</output>
      {computing ? <progress className="bp-progress" aria-label="Simulation progress" max={1} value={s.phase === 'starting' ? undefined : share} /> : null}
    </fieldset>
  );
}
