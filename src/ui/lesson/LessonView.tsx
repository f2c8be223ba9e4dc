/** The guided path: table of contents and the chapter being read. */
import './lesson.css';
import { useEffect, useRef, useState } from 'react';
import { CHAPTERS, chapterById, nextChapter } from '../../lessons/chapters';
import type { ProgressStore } from '../../store/progress-store';
import type { ChapterId, OpenScenario, OpenScenarioRequest, RunTrace } from '../../lessons/types';
import { ChapterView } from './ChapterView';
import { TableOfContents } from './TableOfContents';
import { useLessonProgress } from './useLessonProgress';

export interface LessonViewProps {
  /** Plays a schedule on the engine (the app's Web Worker). */
  runTrace: RunTrace;
  /** Shows a scenario in the lab, positioned at a schedule step. */
  onOpenScenario: OpenScenario;
  /** Defaults to the shared localStorage-backed store. */
  progressStore?: ProgressStore;
  /** Controls which chapter is shown; leave out to let the view remember it. */
  chapterId?: ChapterId;
  onChapterChange?: (chapterId: ChapterId) => void;
  onNarrationStep?: (request: OpenScenarioRequest | null, at: { chapterId: ChapterId; stepId: string }) => void;
  /** Reads the current chapter on in the docked tour beside the lab. */
  onDock?: () => void;
}

export function LessonView({ runTrace, onOpenScenario, progressStore, chapterId, onChapterChange, onNarrationStep, onDock }: LessonViewProps) {
  const { state, store } = useLessonProgress(progressStore);
  const progress = state.progress;
  const [ownChapter, setOwnChapter] = useState<ChapterId>(() => progress.currentChapter ?? CHAPTERS[0]!.id);
  const chapter = chapterById(chapterId ?? ownChapter);
  const next = nextChapter(chapter.id);
  const focusNext = useRef(false);

  // The docked tour moves on in the same saved progress (another chapter becomes the current one): the
  // view follows it. Only a change is followed, so a chapter opened by a link stays open until then.
  const current = progress.currentChapter;
  const followed = useRef(current);
  useEffect(() => {
    if (current === followed.current) return;
    followed.current = current;
    if (!current) return;
    setOwnChapter(current);
    onChapterChange?.(current);
  }, [current, onChapterChange]);

  function select(id: ChapterId, focus = false) {
    focusNext.current = focus;
    setOwnChapter(id);
    store.setChapterStep(id, progress.chapters[id]?.step ?? 0);
    onChapterChange?.(id);
  }

  return (
    <div className="ll-lesson ll-lesson-view">
      <TableOfContents progress={progress} currentChapterId={chapter.id} onSelect={select} />
      <ChapterView
        key={chapter.id}
        chapter={chapter}
        stepIndex={progress.chapters[chapter.id]?.step ?? 0}
        onStepChange={(step) => store.setChapterStep(chapter.id, Math.min(Math.max(0, step), chapter.steps.length - 1))}
        done={progress.chapters[chapter.id]?.done === true}
        onFinish={() => {
          store.markChapterDone(chapter.id);
          if (next) select(next.id, true);
        }}
        runTrace={runTrace}
        onOpenScenario={onOpenScenario}
        onPredicted={(generatorId, correct) => store.recordPrediction(generatorId, correct)}
        onNarrationStep={onNarrationStep}
        onDock={
          onDock
            ? () => {
                // The tour opens at the chapter read here, at the step read here.
                store.setChapterStep(chapter.id, progress.chapters[chapter.id]?.step ?? 0);
                onDock();
              }
            : undefined
        }
        nextChapterTitle={next?.title}
        focusOnMount={focusNext.current}
      />
    </div>
  );
}
