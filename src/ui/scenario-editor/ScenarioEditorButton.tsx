/**
 * The header's "Write a scenario…" button, and on a built-in scenario "Edit a copy…", in the page's first
 * chunk; the editor's form is a chunk of its own (ScenarioEditor.tsx), fetched on the first click and
 * mounted while the dialog is open.
 */
import { Suspense, useState } from 'react';
import { isAuthoredId } from '../../scenarios/authored';
import { useLab } from '../../store/react';
import { lazyPanel } from '../lazyPanel';
import type { EditorStart } from './types';

const { Panel: ScenarioEditorDialog } = lazyPanel('The scenario editor', () => import('./ScenarioEditor').then((module) => module.ScenarioEditorDialog));

export function ScenarioEditorButton() {
  const scenarioId = useLab((s) => s.scenarioId);
  const [start, setStart] = useState<EditorStart | null>(null);
  const authored = isAuthoredId(scenarioId);
  return (
    <>
      <button type="button" onClick={() => setStart('own')} title="Write your own scenario: workers, runs, leases, faults and a schedule">
        {authored ? 'Edit scenario…' : 'Write a scenario…'}
      </button>
      {authored ? null : (
        <button type="button" onClick={() => setStart('copy')} title="Open this scenario in the editor as a copy of your own; the built-in one stays as it is">
          Edit a copy…
        </button>
      )}
      {start ? (
        <Suspense fallback={<output className="lazy-loading">Loading the scenario editor…</output>}>
          <ScenarioEditorDialog start={start} onClosed={() => setStart(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
