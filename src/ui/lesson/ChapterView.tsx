/** One chapter: narration steps with Back / Continue, SQL walkthroughs, predictions and lab links. */
import { RecordingLinks } from './RecordingLinks';
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { CHAPTERS } from '../../lessons/chapters';
import { findGenerator } from '../../lessons/predict';
import type { Chapter, ChapterId, NarrationStep, OpenScenario, OpenScenarioRequest, RunTrace } from '../../lessons/types';
import { findScenario } from '../../scenarios';
import { SourceLinks } from './links';
import { PredictCard } from './PredictCard';
import { narrationRequest, positionLabel } from './requests';
import { Rich } from './Rich';
import { SqlCode } from './SqlCode';
import { SqlWalkthroughView } from './SqlWalkthroughView';

export interface ChapterViewProps {
  chapter: Chapter;
  stepIndex: number;
  onStepChange: (stepIndex: number) => void;
  done: boolean;
  /** Marks the chapter done (and moves on, if the host wants). */
  onFinish: () => void;
  runTrace: RunTrace;
  onOpenScenario: OpenScenario;
  onPredicted?: (generatorId: string, correct: boolean) => void;
  /** Called whenever a narration step is shown, so the host can point the timeline at it. */
  onNarrationStep?: (request: OpenScenarioRequest | null, at: { chapterId: ChapterId; stepId: string }) => void;
  nextChapterTitle?: string;
  /** Move focus to the chapter's first heading when it appears (after "Finish chapter"). */
  focusOnMount?: boolean;
  /**
   * Shown in the docked tour beside the timeline: the lab already follows each step (onNarrationStep), so
   * there is no "Open in the lab" button and the summary is left out to keep the panel short.
   */
  docked?: boolean;
  /** Reads this chapter on in the docked tour, beside the lab (offered in the lesson below the lab). */
  onDock?: () => void;
}

function isTyping(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function ChapterView(props: ChapterViewProps) {
  const {
    chapter,
    stepIndex,
    onStepChange,
    done,
    onFinish,
    runTrace,
    onOpenScenario,
    onPredicted,
    onNarrationStep,
    nextChapterTitle,
    focusOnMount,
    docked = false,
    onDock,
  } = props;
  const index = Math.min(Math.max(0, stepIndex), chapter.steps.length - 1);
  const step = chapter.steps[index]!;
  const last = index === chapter.steps.length - 1;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = useRef<string | null>(null);
  // The step moved by this view's own buttons or keys. The same chapter can be shown twice (the tour
  // beside the lab, the lesson below it), and only the one the learner used takes the focus: the other
  // taking it would scroll the page away from the tour.
  const movedHere = useRef(false);
  const move = (to: number) => {
    movedHere.current = true;
    onStepChange(to);
  };
  const id = useId();
  const number = CHAPTERS.findIndex((c) => c.id === chapter.id) + 1;
  // A step may play another scenario than the chapter's (the incidents, the durable cancel): name the one on show.
  const scenarioId = step.mark?.scenarioId ?? chapter.scenarioId;
  const scenario = scenarioId ? findScenario(scenarioId) : undefined;
  const request = narrationRequest(chapter, step);

  useEffect(() => {
    const key = `${chapter.id}/${step.id}`;
    const first = shown.current === null;
    const changed = shown.current !== key;
    shown.current = key;
    if (!changed) return;
    onNarrationStep?.(narrationRequest(chapter, step), { chapterId: chapter.id, stepId: step.id });
    const asked = movedHere.current;
    movedHere.current = false;
    if (first ? focusOnMount : asked) headingRef.current?.focus();
  }, [chapter, step, onNarrationStep, focusOnMount]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || isTyping(event.target)) return;
    if (event.key === 'ArrowRight' && !last) {
      event.preventDefault();
      move(index + 1);
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      move(index - 1);
    }
  }

  return (
    // The arrow keys step through the narration while focus is anywhere inside the chapter.
    <article className="ll-chapter" aria-labelledby={`${id}-title`} onKeyDown={onKeyDown}>
      <header className="ll-chapter-header">
        <p className="ll-eyebrow">
          Chapter {number} of {CHAPTERS.length}
          {done ? <span className="ll-badge is-done"> Done</span> : null}
        </p>
        <h2 id={`${id}-title`}>{chapter.title}</h2>
        {docked ? null : <p className="ll-summary">{chapter.summary}</p>}
        {scenario ? (
          <p className="ll-scenario">
            Scenario: <strong>{scenario.title}</strong>
          </p>
        ) : null}
      </header>

      <section className="ll-step" aria-labelledby={`${id}-step`}>
        <p className="ll-step-count">
          Step {index + 1} of {chapter.steps.length}
        </p>
        <h3 id={`${id}-step`} ref={headingRef} tabIndex={-1}>
          {step.heading}
        </h3>
        <StepBody step={step} />
        {step.sql ? <SqlWalkthroughView key={`${chapter.id}/${step.id}`} walkthrough={step.sql} /> : null}
        {step.sketch ? <SqlCode sql={step.sketch.sql} caption={step.sketch.caption} /> : null}
        <RecordingLinks ids={step.recordings} />
        {step.view ? (
          <p className="ll-open">
            <a href={step.view.fragment}>{step.view.label}</a>
          </p>
        ) : null}
        {request && !docked ? (
          <p className="ll-open">
            {onDock ? (
              <button type="button" className="ll-primary" onClick={onDock}>
                Read beside the lab
              </button>
            ) : null}{' '}
            <button type="button" onClick={() => onOpenScenario(request)}>
              Open in the lab {positionLabel(request)}
            </button>
          </p>
        ) : null}
        {(step.predict ?? []).map((generatorId) => {
          const generator = findGenerator(generatorId);
          return generator ? (
            <PredictCard
              key={`${chapter.id}/${step.id}/${generatorId}`}
              generator={generator}
              runTrace={runTrace}
              onOpenScenario={onOpenScenario}
              onAnswered={(correct) => onPredicted?.(generatorId, correct)}
            />
          ) : null;
        })}
        <SourceLinks ids={step.sources} />
      </section>

      <nav className="ll-step-nav" aria-label="Chapter steps">
        <button type="button" onClick={() => move(index - 1)} disabled={index === 0}>
          ← Back
        </button>
        {last ? (
          <button type="button" className="ll-primary" onClick={onFinish}>
            {done
              ? nextChapterTitle
                ? `Next: ${nextChapterTitle}`
                : 'Chapter done'
              : nextChapterTitle
                ? `Finish chapter, then: ${nextChapterTitle}`
                : 'Finish the lesson'}
          </button>
        ) : (
          <button type="button" className="ll-primary" onClick={() => move(index + 1)}>
            Continue →
          </button>
        )}
        <span className="ll-hint">
          {docked ? 'Continue plays this step in the lab. ← and → here step the tour.' : 'Tip: ← and → also step through the chapter.'}
        </span>
      </nav>
    </article>
  );
}

function StepBody({ step }: { step: NarrationStep }) {
  const paragraphs = step.body.map((text, position) => ({ text, position }));
  return (
    <div className="ll-prose">
      {paragraphs.map((paragraph) => (
        <p key={paragraph.position}>
          <Rich text={paragraph.text} />
        </p>
      ))}
    </div>
  );
}
