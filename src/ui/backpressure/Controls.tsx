import { formatSeconds } from '../../charts/draw';
import { allDone, type BackpressureState, lastShowable, BACKPRESSURE_SPEEDS, simulatedShare } from '../../store/backpressure-store';
import { type Command, BACKPRESSURE_COMMANDS } from '../commands';
import { useBackpressure, useBackpressureStore } from './context';

/** One of the view's commands as a button (its key, if it has one, in aria-keyshortcuts). */
function BackpressureButton({ command, className }: { command: Command<BackpressureState>; className?: string }) {
  const store = useBackpressureStore();
  const enabled = useBackpressure(command.enabled);
  const label = useBackpressure(command.label);
  return (
    <button
      type="button"
      className={className}
      aria-keyshortcuts={command.key === null ? undefined : KEY_SHORTCUT[command.key]}
      onClick={() => command.perform(store.getState())}
      disabled={!enabled}
    >
      {label}
    </button>
  );
}

/** aria-keyshortcuts names a key as KeyboardEvent.key does, with Space spelt out. */
const KEY_SHORTCUT: Record<string, string> = { ' ': 'Space', ArrowRight: 'ArrowRight', ArrowLeft: 'ArrowLeft', r: 'R' };

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
      <BackpressureButton command={BACKPRESSURE_COMMANDS.togglePlay} className="primary" />
      <BackpressureButton command={BACKPRESSURE_COMMANDS.step} />
      <BackpressureButton command={BACKPRESSURE_COMMANDS.toEnd} />
      <BackpressureButton command={BACKPRESSURE_COMMANDS.rewind} />
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
