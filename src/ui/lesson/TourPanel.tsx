/**
 * The docked tour (issue 18, 3.3): the lesson's current chapter step beside the timeline, so the words and
 * what they describe are on screen together. Continue plays the step's schedule in the lab; the place
 * (chapter, step) is the lesson's saved progress, so leaving the tour and coming back resumes there, and
 * the lesson below the lab shows the same step.
 */
import './lesson.css';
import { use, useCallback, useRef } from 'react';
import { CHAPTERS, chapterById, nextChapter } from '../../lessons/chapters';
import type { OpenScenarioRequest, RunTrace } from '../../lessons/types';
import { useLab, useLabStore } from '../../store/react';
import { ChapterView } from './ChapterView';
import { ProgressContext, useLessonProgress, useProgressLoader } from './useLessonProgress';

/** Below this width the tour is a sheet over the lab (app.css), so the timeline is brought into view above it. */
const SHEET_QUERY = '(max-width: 1099px)';

export function TourPanel() {
  const progress = use(useProgressLoader().load());
  const leave = useLab((s) => s.setTourOpen);
  return (
    <aside className="tour ll-lesson" aria-label="Tour">
      <div className="tour-bar">
        <p className="tour-title">Tour: the lesson beside the lab</p>
        <button type="button" onClick={() => leave(false)}>
          Leave the tour
        </button>
      </div>
      {progress ? (
        <ProgressContext.Provider value={progress}>
          <TourChapter />
        </ProgressContext.Provider>
      ) : (
        <output className="lazy-loading">The lesson's progress could not be loaded. Reload the page when the connection is back.</output>
      )}
    </aside>
  );
}

function TourChapter() {
  const lab = useLabStore();
  const { state, store } = useLessonProgress();
  const progress = state.progress;
  const chapter = chapterById(progress.currentChapter ?? CHAPTERS[0]!.id);
  const next = nextChapter(chapter.id);
  // After "Finish chapter" the next chapter's heading takes the focus, so the keyboard stays in the tour.
  const focusNext = useRef(false);
  const runTrace = useCallback<RunTrace>((scenario, settings, schedule) => lab.getState().runTrace(scenario, settings, schedule), [lab]);
  const open = useCallback(
    (request: OpenScenarioRequest) => {
      void lab.getState().openScenarioAt({ scenarioId: request.scenarioId, settings: request.settings, schedule: request.schedule, upTo: request.position });
      if (window.matchMedia?.(SHEET_QUERY).matches) document.querySelector('.timeline-panel')?.scrollIntoView({ block: 'start' });
    },
    [lab],
  );
  // Each step shown (on entering, on Continue and Back) plays its schedule in the lab; a text-only step leaves the lab as it is.
  const onNarrationStep = useCallback((request: OpenScenarioRequest | null) => (request ? open(request) : undefined), [open]);
  return (
    <ChapterView
      key={chapter.id}
      docked
      chapter={chapter}
      stepIndex={progress.chapters[chapter.id]?.step ?? 0}
      onStepChange={(step) => store.setChapterStep(chapter.id, Math.min(Math.max(0, step), chapter.steps.length - 1))}
      done={progress.chapters[chapter.id]?.done === true}
      onFinish={() => {
        store.markChapterDone(chapter.id);
        if (!next) return;
        focusNext.current = true;
        store.setChapterStep(next.id, progress.chapters[next.id]?.step ?? 0);
      }}
      runTrace={runTrace}
      onOpenScenario={open}
      onPredicted={(generatorId, correct) => store.recordPrediction(generatorId, correct)}
      onNarrationStep={onNarrationStep}
      nextChapterTitle={next?.title}
      focusOnMount={focusNext.current}
    />
  );
}
