import { useLab } from '../store/react';
import { SwitchField } from './SwitchField';

/** The free lab: every control, whatever the scenario needs (store/disclosure.ts). Remembered with the preferences. */
export function AllControlsSwitch() {
  const on = useLab((s) => s.allControls);
  const setAllControls = useLab((s) => s.setAllControls);
  return (
    <SwitchField
      id="all-controls"
      label="All controls"
      title="Show every control (the free lab), not only those this scenario uses"
      on={on}
      onChange={setAllControls}
    />
  );
}
