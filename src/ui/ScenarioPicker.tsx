import { FIX_SCENARIOS, SCENARIOS } from '../scenarios';
import { isAuthoredId, pickerName } from '../scenarios/authored';
import { useLab } from '../store/react';
import { useScenario } from './hooks';

export function ScenarioPicker() {
  const scenario = useScenario();
  const chooseScenario = useLab((s) => s.chooseScenario);
  return (
    <div className="field picker-field scenario-field">
      <label htmlFor="scenario">Scenario</label>
      <select id="scenario" value={scenario.id} onChange={(e) => void chooseScenario(e.target.value)} aria-describedby="scenario-summary">
        {SCENARIOS.map((s) => (
          <option key={s.id} value={s.id}>
            {s.title}
          </option>
        ))}
        {/* An incident's fix that is a setting, listed while it is the one on screen (opened from the comparison or a link). */}
        {FIX_SCENARIOS.some((s) => s.id === scenario.id) ? (
          <optgroup label="An incident's fix">
            <option value={scenario.id}>{scenario.title}</option>
          </optgroup>
        ) : null}
        {/* A scenario someone wrote (the editor, or a link), listed while it is the one on screen. */}
        {isAuthoredId(scenario.id) ? (
          <optgroup label="Written by you (or whoever sent the link)">
            <option value={scenario.id}>{pickerName(scenario.title)}</option>
          </optgroup>
        ) : null}
      </select>
    </div>
  );
}
