/**
 * The lesson beside the lab: its questions run on the same engine, and "Open in the lab" loads the
 * example into the timeline above.
 */
import { useCallback, useMemo } from 'react';
import type { OpenScenarioRequest, RunTrace } from '../lessons/types';
import { useLab, useLabStore } from '../store/react';
import { LessonHub } from './lesson';

export function LessonArea() {
  const store = useLabStore();
  const steps = useLab((s) => s.steps);
  const loaded = useLab((s) => s.loaded);
  const currentTrace = useMemo(() => (loaded && steps ? store.getState().trace() : null), [store, loaded, steps]);

  const runTrace = useCallback<RunTrace>((scenario, settings, schedule) => store.getState().runTrace(scenario, settings, schedule), [store]);
  const openScenario = useCallback(
    (request: OpenScenarioRequest) => {
      void store.getState().openScenarioAt({ scenarioId: request.scenarioId, settings: request.settings, schedule: request.schedule, upTo: request.position });
      document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    [store],
  );

  return (
    <section className="lesson-area" aria-labelledby="lesson-heading">
      <h2 id="lesson-heading" className="lesson-area-heading">
        Lesson
      </h2>
      <LessonHub runTrace={runTrace} onOpenScenario={openScenario} currentTrace={currentTrace} />
    </section>
  );
}
