/**
 * The lesson beside the lab: its questions run on the same engine, and "Open in the lab" loads the
 * example into the timeline above.
 */
import { useCallback, useEffect, useMemo, use } from 'react';
import type { OpenScenarioRequest, RunTrace } from '../lessons/types';
import { useLabStore } from '../store/react';
import { takeLessonWish } from './deferred';
import { LessonHub, parseLessonHash } from './lesson';
import { ProgressContext, useProgressLoader } from './lesson/useLessonProgress';

/** `linkAtStart`: the address the page was opened at, which may be a lesson link (#lesson/chapter/…). */
export function LessonArea({ linkAtStart }: { linkAtStart: string }) {
  const store = useLabStore();
  // Loaded beside this chunk (App's BelowTheLab asks for both); the same promise on every render.
  const progress = use(useProgressLoader().load());
  const linked = useMemo(() => parseLessonHash(linkAtStart), [linkAtStart]);

  const runTrace = useCallback<RunTrace>((scenario, settings, schedule) => store.getState().runTrace(scenario, settings, schedule), [store]);
  const openScenario = useCallback(
    (request: OpenScenarioRequest) => {
      void store.getState().openScenarioAt({ scenarioId: request.scenarioId, settings: request.settings, schedule: request.schedule, upTo: request.position });
      document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    },
    [store],
  );

  // "Read beside the lab": the chapter's place is already the lesson's progress, which the tour reads.
  const dock = useCallback(() => {
    store.getState().setTourOpen(true);
    document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [store]);

  // The same element while its inputs stand still, so React skips the whole lesson when only the lab moved.
  const hub = useMemo(
    () => <LessonHub linked={linked} runTrace={runTrace} onOpenScenario={openScenario} onDock={dock} />,
    [linked, runTrace, openScenario, dock],
  );

  // The Lesson ↓ button was pressed before the lesson had loaded: it scrolls here now.
  useEffect(() => {
    if (takeLessonWish()) document.getElementById('lesson-heading')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, []);

  return (
    <section className="lesson-area" aria-labelledby="lesson-heading">
      <h2 id="lesson-heading" className="lesson-area-heading">
        Lesson
      </h2>
      {progress ? (
        <ProgressContext.Provider value={progress}>{hub}</ProgressContext.Provider>
      ) : (
        <output className="lazy-loading">The lesson's progress could not be loaded. Reload the page when the connection is back.</output>
      )}
    </section>
  );
}
