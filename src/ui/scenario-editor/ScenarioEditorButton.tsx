/**
 * The header's "Write a scenario…" button, in the page's first chunk; the editor's form is a chunk of its
 * own (ScenarioEditor.tsx), fetched on the first click and mounted while the dialog is open.
 */
import { Suspense, useState } from 'react';
import { isAuthoredId } from '../../scenarios/authored';
import { useLab } from '../../store/react';
import { lazyPanel } from '../lazyPanel';

const { Panel: ScenarioEditorDialog } = lazyPanel('The scenario editor', () => import('./ScenarioEditor').then((module) => module.ScenarioEditorDialog));

export function ScenarioEditorButton() {
  const scenarioId = useLab((s) => s.scenarioId);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} title="Write your own scenario: workers, runs, leases, faults and a schedule">
        {isAuthoredId(scenarioId) ? 'Edit scenario…' : 'Write a scenario…'}
      </button>
      {open ? (
        <Suspense fallback={<output className="lazy-loading">Loading the scenario editor…</output>}>
          <ScenarioEditorDialog onClosed={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
