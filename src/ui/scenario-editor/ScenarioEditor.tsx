import { useEffect, useMemo, useRef, useState } from 'react';
import { findScenario } from '../../scenarios';
import { copySpecOf, isAuthoredId, rememberAuthored, type ScenarioSpec, specOf, starterSpec } from '../../scenarios/authored';
import { useLab } from '../../store/react';
import { download } from '../download';
import { BasicsFields } from './BasicsFields';
import { FaultsFields } from './FaultsFields';
import { checkSpec } from './problems';
import { RunsFields } from './RunsFields';
import { ScheduleField } from './ScheduleField';
import { SetupFields } from './SetupFields';
import type { EditorStart } from './types';

interface Opening {
  spec: ScenarioSpec;
  /** One line above the form: what the copy is of, or why the built-in could not be copied. */
  note: string | null;
}

/** The spec the editor opens with: a copy of the built-in scenario on screen, the scenario on screen if someone wrote it, else the lab's usual setup. */
function opening(scenarioId: string, start: EditorStart): Opening {
  const scenario = findScenario(scenarioId);
  if (start === 'copy' && scenario && !isAuthoredId(scenarioId)) {
    const copy = copySpecOf(scenario);
    if ('reason' in copy) return { spec: starterSpec(), note: copy.reason };
    return { spec: copy.spec, note: `A copy of “${scenario.title}”; the built-in one stays as it is.` };
  }
  return { spec: scenario && isAuthoredId(scenarioId) ? specOf(scenario) : starterSpec(), note: null };
}

/**
 * "Write a scenario…" and "Edit a copy…": a modal form whose result plays like a built-in scenario, and
 * travels in the link. A chunk of its own, mounted (and shown) when the button in the header (ScenarioEditorButton.tsx) is
 * clicked; `onClosed` unmounts it once the dialog has closed.
 */
export function ScenarioEditorDialog({ start, onClosed }: { start: EditorStart; onClosed: () => void }) {
  const scenarioId = useLab((s) => s.scenarioId);
  const chooseScenario = useLab((s) => s.chooseScenario);
  // The spec it opens with is read once: the scenario on screen then, whatever the form makes of it after.
  const [{ spec: first, note }] = useState(() => opening(scenarioId, start));
  const [spec, setSpec] = useState<ScenarioSpec>(first);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="scenario-editor" aria-labelledby="editor-heading" onClose={onClosed}>
      <EditorForm
        note={note}
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
  note,
  spec,
  setSpec,
  close,
  play,
}: {
  note: string | null;
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
      {note ? <p className="editor-note">{note}</p> : null}
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
