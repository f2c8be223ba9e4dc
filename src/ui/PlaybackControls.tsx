import { PLAYBACK_SPEEDS } from '../store/persist';
import { useLab } from '../store/react';
import { useBusy, useReady, useShownControls } from './hooks';

export function PlaybackControls() {
  const ready = useReady();
  const busy = useBusy();
  const playing = useLab((s) => s.playing);
  const speed = useLab((s) => s.speed);
  const position = useLab((s) => s.position);
  const total = useLab((s) => s.steps.length);
  const over = useLab((s) => (s.status?.isOver === true || s.stalled) && s.position >= s.steps.length);
  const step = useLab((s) => s.step);
  const back = useLab((s) => s.back);
  const reset = useLab((s) => s.reset);
  const togglePlay = useLab((s) => s.togglePlay);
  const setSpeed = useLab((s) => s.setSpeed);
  const seek = useLab((s) => s.seek);
  const shown = useShownControls();
  return (
    <fieldset className="group">
      <legend className="visually-hidden">Playback</legend>
      <button type="button" onClick={() => void reset()} disabled={!ready} title="Reset (R)">
        Reset
      </button>
      <button type="button" onClick={back} disabled={!ready || position === 0} title="Back one step (←)">
        Back
      </button>
      <button
        type="button"
        className={busy ? 'primary is-busy' : 'primary'}
        aria-busy={busy}
        onClick={() => void step()}
        disabled={!ready || over}
        title="Play the script's next step (→)"
      >
        Next step
      </button>
      <button type="button" onClick={togglePlay} disabled={!ready || (over && !playing)} aria-pressed={playing} title="Play or pause (Space)">
        {playing ? 'Pause' : 'Play'}
      </button>
      {shown.speed ? (
        <label className="inline-field">
          <span>Speed</span>
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))}>
            {PLAYBACK_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s} step{s === 1 ? '' : 's'}/s
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="inline-field position">
        <span className="visually-hidden">Step position</span>
        <input
          type="range"
          min={0}
          max={total}
          value={position}
          disabled={!ready || total === 0}
          onChange={(e) => seek(Number(e.target.value))}
          aria-valuetext={`step ${position} of ${total}`}
        />
        <output aria-hidden="true">
          {position}/{total}
        </output>
      </label>
    </fieldset>
  );
}
