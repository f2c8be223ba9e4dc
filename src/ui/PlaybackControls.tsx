import { PLAYBACK_SPEEDS } from '../store/persist';
import { useLab } from '../store/react';
import { CommandButton } from './CommandButton';
import { LAB_COMMANDS } from './commands';
import { useBusy, useReady, useShownControls } from './hooks';

export function PlaybackControls() {
  const ready = useReady();
  const busy = useBusy();
  const speed = useLab((s) => s.speed);
  const position = useLab((s) => s.position);
  const total = useLab((s) => s.steps.length);
  const setSpeed = useLab((s) => s.setSpeed);
  const seek = useLab((s) => s.seek);
  const shown = useShownControls();
  return (
    <fieldset className="group">
      <legend className="visually-hidden">Playback</legend>
      <CommandButton command={LAB_COMMANDS.reset} />
      <CommandButton command={LAB_COMMANDS.back} />
      <CommandButton command={LAB_COMMANDS.step} className={busy ? 'primary is-busy' : 'primary'} busy={busy} />
      <CommandButton command={LAB_COMMANDS.togglePlay} />
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
