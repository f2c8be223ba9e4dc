import { useLab } from '../store/react';

/** The free lab: every control, whatever the scenario needs (store/disclosure.ts). Remembered with the preferences. */
export function AllControlsSwitch() {
  const on = useLab((s) => s.allControls);
  const setAllControls = useLab((s) => s.setAllControls);
  return (
    <div className="field switch-field" title="Show every control (the free lab), not only those this scenario uses">
      <input
        id="all-controls"
        type="checkbox"
        role="switch"
        aria-checked={on}
        className="switch"
        checked={on}
        onChange={(e) => setAllControls(e.target.checked)}
      />
      <label htmlFor="all-controls">All controls</label>
    </div>
  );
}
