import { useState } from 'react';
import { clockLabel, durationLabel } from '../sim/clock';
import { secondsToNextExpiry } from '../store/derive';
import { useLab } from '../store/react';
import { useCursorSnapshot, useReady, useRecordedMove } from './hooks';

const AMOUNTS = [1, 10, 30, 60, 90, 300];

export function ClockControls() {
  const ready = useReady();
  const snapshot = useCursorSnapshot();
  const advanceClock = useLab((s) => s.advanceClock);
  const advanceToExpiry = useLab((s) => s.advanceToExpiry);
  const [seconds, setSeconds] = useState(30);
  const toExpiry = secondsToNextExpiry(snapshot.runs, snapshot.clockSeconds);
  // A recording's clock moves only where the server's run moved it (none of the recordings does).
  const recorded = useRecordedMove();
  return (
    <fieldset className="group">
      <legend className="visually-hidden">Clock</legend>
      <span className="clock" title="The lab's virtual clock (Postgres reads it through now())">
        <span className="visually-hidden">Clock </span>
        {clockLabel(snapshot.clockSeconds)}
      </span>
      <label className="inline-field">
        <span className="visually-hidden">Advance by</span>
        <select value={seconds} onChange={(e) => setSeconds(Number(e.target.value))}>
          {AMOUNTS.map((s) => (
            <option key={s} value={s}>
              +{s} s
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => void advanceClock(seconds)} disabled={!ready || recorded !== null} title={recorded?.why}>
        Advance clock
      </button>
      <button
        type="button"
        onClick={() => void advanceToExpiry()}
        disabled={!ready || toExpiry === null || recorded !== null}
        title={recorded?.why ?? 'Move the clock just past the next lease expiry'}
      >
        {toExpiry === null ? 'To lease expiry' : `To lease expiry (+${durationLabel(toExpiry)})`}
      </button>
    </fieldset>
  );
}
