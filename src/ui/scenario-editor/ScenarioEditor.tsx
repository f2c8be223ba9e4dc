import { useEffect, useMemo, useRef, useState } from 'react';
import { findScenario } from '../../scenarios';
import { isAuthoredId, rememberAuthored, type ScenarioSpec, specOf, starterSpec } from '../../scenarios/authored';
import { useLab } from '../../store/react';
import { download } from '../download';
import { BasicsFields } from './BasicsFields';
import { FaultsFields } from './FaultsFields';
import { checkSpec } from './problems';
import { RunsFields } from './RunsFields';
import { ScheduleField } from './ScheduleField';
import { SetupFields } from './SetupFields';

/** The spec the editor opens with: the scenario on screen if someone wrote it, else the lab's usual setup. */
function openingSpec(scenarioId: string): ScenarioSpec {
  const scenario = isAuthoredId(scenarioId) ? findScenario(scenarioId) : undefined;
  return scenario ? specOf(scenario) : starterSpec();
}

/**
 * "Write a scenario…": a modal form whose result plays like a built-in scenario, and travels in the link.
 * A chunk of its own, mounted (and shown) when the button in the header (ScenarioEditorButton.tsx) is
 * clicked; `onClosed` unmounts it once the dialog has closed.
 */
export function ScenarioEditorDialog({ onClosed }: { onClosed: () => void }) {
  const scenarioId = useLab((s) => s.scenarioId);
  const chooseScenario = useLab((s) => s.chooseScenario);
  // The spec it opens with is read once: the scenario on screen then, whatever the form makes of it after.
  const [spec, setSpec] = useState<ScenarioSpec>(() => openingSpec(scenarioId));
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="scenario-editor" aria-labelledby="editor-heading" onClose={onClosed}>
      <EditorForm
        spec={spec}
        setSpec={setSpec}
        close={() => ref.current?.close()}
        play={(id) => {
          ref.current?.close();
          void chooseScenario(id);
        }}
      />
    </dialog>
  );
}

function EditorForm({
  spec,
  setSpec,
  close,
  play,
}: {
  spec: ScenarioSpec;
  setSpec: (spec: ScenarioSpec) => void;
  close: () => void;
  play: (id: string) => void;
}) {
  const checked = useMemo(() => checkSpec(spec), [spec]);
  const part = { spec, problems: checked.byField, change: (update: (spec: ScenarioSpec) => ScenarioSpec) => setSpec(update(spec)) };
  const count = checked.byField.size;
  return (
    <form
      className="editor-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!checked.scenario) return;
        rememberAuthored(checked.scenario);
        play(checked.scenario.id);
      }}
    >
      <h2 id="editor-heading">Your scenario</h2>
      <p className="muted">
        It is checked as the lab's own scenarios are, plays and explores like them, and travels whole in the lab's link: share the address to share it.
      </p>
      <div className="editor-parts">
        <BasicsFields {...part} />
        <SetupFields {...part} />
        <RunsFields {...part} />
        <FaultsFields {...part} />
        <ScheduleField {...part} />
      </div>
      <div className="editor-footer">
        <p className="editor-status" aria-live="polite">
          {count === 0 ? 'Ready to play.' : `${count} field${count === 1 ? ' needs' : 's need'} fixing before it can play.`}
        </p>
        <button
          type="button"
          onClick={() => download(new Blob([`${JSON.stringify(spec, null, 2)}\n`], { type: 'application/json' }), 'lease-lab-scenario.json')}
          disabled={count > 0}
          title="The scenario as JSON, for npm run sim -- run --scenario-file FILE"
        >
          Download JSON
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={count > 0}>
          Play this scenario
        </button>
      </div>
    </form>
  );
}
