import { useLab } from '../store/react';

/** A checkbox that reads as a switch; flipping it replays the same schedule at once. */
export function FencingSwitch() {
  const fencing = useLab((s) => s.settings.fencing);
  const setFencing = useLab((s) => s.setFencing);
  return (
    <div
      className="field switch-field"
      title={fencing ? 'Writes check the lease generation (the fencing token)' : 'Writes trust the worker: no generation check'}
    >
      <input
        id="fencing"
        type="checkbox"
        role="switch"
        aria-checked={fencing}
        className="switch"
        checked={fencing}
        onChange={(e) => void setFencing(e.target.checked)}
      />
      <label htmlFor="fencing">Fencing</label>
    </div>
  );
}
