/**
 * Everything in one place: chapters, levels (the challenges), quiz, exit criteria and concept table as tabs, with
 * the progress notice and reset control. Links between the views switch tabs.
 */
import './lesson.css';
import { type KeyboardEvent, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { findChallenge } from '../../lessons/challenges';
import { isChapterId } from '../../lessons/chapters';
import type { ProgressStore } from '../../store/progress-store';
import { findQuestion } from '../../lessons/quiz';
import type { ChapterId, OpenScenario, OpenScenarioRequest, RunTrace } from '../../lessons/types';
import { ConceptTable } from './ConceptTable';
import { ExitCriteriaView } from './ExitCriteriaView';
import { LessonView } from './LessonView';
import { LevelsView } from './LevelsView';
import { type LessonTarget, parseLessonHash } from './links';
import { ProgressNotice, ProgressSummary, ResetProgress } from './ProgressControls';
import { QuizView } from './QuizView';
import { useLessonProgress } from './useLessonProgress';
import { lazyPanel } from '../lazyPanel';

// In a chunk of its own: most learners never open it.
const { Panel: QueueComparison } = lazyPanel('The queue comparison', () => import('../comparison/QueueComparison').then((module) => module.QueueComparison));

export type LessonTab = 'chapters' | 'challenges' | 'quiz' | 'exit' | 'concepts' | 'compare';

const TABS: { id: LessonTab; label: string }[] = [
  { id: 'chapters', label: 'Chapters' },
  { id: 'challenges', label: 'Levels' },
  { id: 'quiz', label: 'Quiz' },
  { id: 'exit', label: 'Exit criteria' },
  { id: 'concepts', label: 'Concepts' },
  { id: 'compare', label: 'Compare queues' },
];

export interface LessonHubProps {
  runTrace: RunTrace;
  onOpenScenario: OpenScenario;
  progressStore?: ProgressStore;
  initialTab?: LessonTab;
  /**
   * The lesson link to open at first (null: none); by default the one in the address. A hub mounted
   * after the lab has loaded needs it passed in: the lab has put its own link in the address by then.
   */
  linked?: LessonTarget | null;
  onNarrationStep?: (request: OpenScenarioRequest | null, at: { chapterId: ChapterId; stepId: string }) => void;
  /** Reads the current chapter on in the docked tour beside the lab. */
  onDock?: () => void;
}

interface Place {
  tab: LessonTab;
  chapterId?: ChapterId;
  questionId?: string;
  challengeId?: string;
}

function initialPlace(initialTab: LessonTab | undefined, linked: LessonTarget | null | undefined): Place {
  const target = linked !== undefined ? linked : typeof window === 'undefined' ? null : parseLessonHash(window.location.hash);
  if (target?.kind === 'chapter' && isChapterId(target.id)) return { tab: 'chapters', chapterId: target.id };
  if (target?.kind === 'question' && findQuestion(target.id)) return { tab: 'quiz', questionId: target.id };
  if (target?.kind === 'challenge' && findChallenge(target.id)) return { tab: 'challenges', challengeId: target.id };
  return { tab: initialTab ?? 'chapters' };
}

export function LessonHub({ runTrace, onOpenScenario, progressStore, initialTab, linked, onNarrationStep, onDock }: LessonHubProps) {
  const [place, setPlace] = useState<Place>(() => initialPlace(initialTab, linked));
  const tabRefs = useRef(new Map<LessonTab, HTMLButtonElement>());
  const id = useId();
  const { store } = useLessonProgress(progressStore);
  // Another tab of the lesson saves to the same storage: read its progress, or this tab's next save
  // would write its older copy over it.
  useEffect(() => (typeof window === 'undefined' ? undefined : store.listenToOtherTabs(window)), [store]);

  // Built only when the hub's own inputs change, so a re-render from above skips it.
  const rest = useMemo(() => {
    const openChapter = (chapterId: ChapterId) => setPlace({ tab: 'chapters', chapterId });
    const openQuestion = (questionId: string) => setPlace({ tab: 'quiz', questionId });
    const openChallenge = (challengeId: string) => setPlace({ tab: 'challenges', challengeId });

    function onTabKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
      const last = TABS.length - 1;
      const next =
        event.key === 'ArrowRight'
          ? index === last
            ? 0
            : index + 1
          : event.key === 'ArrowLeft'
            ? index === 0
              ? last
              : index - 1
            : event.key === 'Home'
              ? 0
              : event.key === 'End'
                ? last
                : null;
      if (next === null) return;
      event.preventDefault();
      const tab = TABS[next]!.id;
      setPlace({ tab });
      tabRefs.current.get(tab)?.focus();
    }

    const bar = (
      <div className="ll-hub-bar">
        <div role="tablist" aria-label="Lesson" className="ll-tabs">
          {TABS.map((tab, index) => (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.id}`}
              aria-selected={place.tab === tab.id}
              aria-controls={`${id}-panel`}
              tabIndex={place.tab === tab.id ? 0 : -1}
              onClick={() => setPlace({ tab: tab.id })}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <ProgressSummary progressStore={progressStore} />
      </div>
    );
    const notice = <ProgressNotice progressStore={progressStore} />;
    const otherPanels = (
      <>
        {place.tab === 'chapters' ? (
          <LessonView
            runTrace={runTrace}
            onOpenScenario={onOpenScenario}
            progressStore={progressStore}
            chapterId={place.chapterId}
            onChapterChange={(chapterId) => setPlace({ tab: 'chapters', chapterId })}
            onNarrationStep={onNarrationStep}
            onDock={onDock}
          />
        ) : null}
        {place.tab === 'challenges' ? (
          <LevelsView onOpenScenario={onOpenScenario} onOpenChapter={openChapter} progressStore={progressStore} challengeId={place.challengeId} />
        ) : null}
        {place.tab === 'quiz' ? <QuizView runTrace={runTrace} onOpenChapter={openChapter} progressStore={progressStore} questionId={place.questionId} /> : null}
        {place.tab === 'exit' ? (
          <ExitCriteriaView progressStore={progressStore} onOpenChapter={openChapter} onOpenChallenge={openChallenge} onOpenQuestion={openQuestion} />
        ) : null}
        {place.tab === 'concepts' ? <ConceptTable onOpenChapter={openChapter} onCompareQueues={() => setPlace({ tab: 'compare' })} /> : null}
        {place.tab === 'compare' ? (
          <Suspense fallback={<p className="lazy-loading">Loading the comparison…</p>}>
            <QueueComparison />
          </Suspense>
        ) : null}
      </>
    );
    const footer = (
      <footer className="ll-hub-footer">
        <ResetProgress progressStore={progressStore} />
      </footer>
    );
    return { bar, notice, otherPanels, footer };
  }, [place, id, progressStore, runTrace, onOpenScenario, onNarrationStep, onDock]);

  return (
    <div className="ll-lesson ll-hub">
      {rest.bar}
      {rest.notice}
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${place.tab}`} className="ll-panel">
        {rest.otherPanels}
      </div>
      {rest.footer}
    </div>
  );
}
