import { useLab } from '../store/react';
import { SwitchField } from './SwitchField';

/** Fencing on or off; flipping it replays the same schedule at once. */
export function FencingSwitch() {
  const fencing = useLab((s) => s.settings.fencing);
  const setFencing = useLab((s) => s.setFencing);
  return (
    <SwitchField
      id="fencing"
      label="Fencing"
      title={fencing ? 'Writes check the lease generation (the fencing token)' : 'Writes trust the worker: no generation check'}
      on={fencing}
      onChange={(on) => void setFencing(on)}
    />
  );
}
