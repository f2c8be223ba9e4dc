import { useEffect, useState } from 'react';
import { KNOBS, type KnobSpec, BACKPRESSURE_PRESETS } from '../../sim/backpressure/presets';
import { useBackpressure } from './context';

/** A number field that commits on Enter or leaving it, so typing "12" does not start a run at "1". */
function KnobField({ knob, value }: { knob: KnobSpec; value: number | null }) {
  const setKnob = useBackpressure((s) => s.setKnob);
  const [text, setText] = useState(value === null ? '' : String(value));
  useEffect(() => setText(value === null ? '' : String(value)), [value]);
  const commit = () => {
    const parsed = Number(text);
    if (text.trim() === '' || !Number.isFinite(parsed)) return setText(value === null ? '' : String(value));
    if (parsed !== value) setKnob(knob.id, parsed);
  };
  const id = `bp-knob-${knob.id}`;
  return (
    <div className="bp-knob">
      <label htmlFor={id}>
        {knob.label}
        {knob.unit ? <span className="bp-unit"> ({knob.unit})</span> : null}
      </label>
      <div className="bp-knob-input">
        <input
          id={id}
          type="number"
          min={knob.min}
          max={knob.max}
          step={knob.step}
          value={text}
          disabled={value === null}
          placeholder="no limit"
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commit();
          }}
        />
        {knob.limit ? (
          <label className="bp-nolimit">
            <input
              type="checkbox"
              checked={value === null}
              onChange={(e) => setKnob(knob.id, e.target.checked ? null : Math.min(knob.max, Math.max(knob.min, 4)))}
            />
            none
          </label>
        ) : null}
      </div>
    </div>
  );
}

export function PresetField() {
  const presetId = useBackpressure((s) => s.presetId);
  const choosePreset = useBackpressure((s) => s.choosePreset);
  return (
    <div className="field">
      <label htmlFor="bp-preset">Case</label>
      <select id="bp-preset" value={presetId} onChange={(e) => choosePreset(e.target.value)} aria-describedby="bp-preset-summary">
        {BACKPRESSURE_PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.title}
          </option>
        ))}
      </select>
    </div>
  );
}

export function PresetSummary() {
  const presetId = useBackpressure((s) => s.presetId);
  return (
    <p id="bp-preset-summary" className="summary">
      {BACKPRESSURE_PRESETS.find((p) => p.id === presetId)?.summary}
    </p>
  );
}

export function Knobs() {
  const config = useBackpressure((s) => s.config);
  return (
    <fieldset className="bp-knobs">
      <legend>Knobs (the same seed and knobs always give the same result)</legend>
      {KNOBS.map((knob) => (
        <KnobField key={knob.id} knob={knob} value={config[knob.id]} />
      ))}
    </fieldset>
  );
}
