/**
 * Be the scheduler: challenges played in the lab. The app passes the trace it currently shows; the
 * active challenge judges it whenever it changes, and on "Check my run".
 */
import './lesson.css';
import { useEffect, useId, useRef, useState } from 'react';
import { CHALLENGES } from '../../lessons/challenges';
import { findChapter } from '../../lessons/chapters';
import type { ProgressStore } from '../../store/progress-store';
import type { Challenge, Judgement, OpenScenario } from '../../lessons/types';
import { findScenario } from '../../scenarios';
import { listSteps } from '../../sim/anomalies';
import { STRATEGY_LABELS, type Trace } from '../../sim/types';
import { LessonLink } from './links';
import { useLessonProgress } from './useLessonProgress';

export interface ChallengesViewProps {
  /** The trace the lab currently shows (null before anything ran). */
  currentTrace: Trace | null;
  /** Opens the challenge's scenario, with its settings and an empty schedule. */
  onOpenScenario: OpenScenario;
  onOpenChapter?: (chapterId: string) => void;
  progressStore?: ProgressStore;
  /** The challenge to show as active first. */
  challengeId?: string;
}

export function ChallengesView({ currentTrace, onOpenScenario, onOpenChapter, progressStore, challengeId }: ChallengesViewProps) {
  const { state, store } = useLessonProgress(progressStore);
  const [active, setActive] = useState<string | null>(challengeId ?? null);
  const [judgements, setJudgements] = useState<Record<string, Judgement>>({});
  // The trace on screen when a challenge was opened is not the learner's attempt: wait for a new one.
  const openedOn = useRef<Trace | null>(null);

  useEffect(() => {
    if (active === null || currentTrace === null || currentTrace === openedOn.current) return;
    const challenge = CHALLENGES.find((c) => c.id === active);
    if (!challenge) return;
    const judgement = challenge.judge(currentTrace);
    setJudgements((before) => ({ ...before, [active]: judgement }));
    if (judgement.won) store.recordChallengeWon(active);
  }, [active, currentTrace, store]);

  const won = CHALLENGES.filter((c) => state.progress.challenges[c.id]?.won).length;

  return (
    <section className="ll-lesson ll-challenges" aria-labelledby="ll-challenges-title">
      <header>
        <h2 id="ll-challenges-title">Challenges: be the scheduler</h2>
        <p>
          You decide who moves next. Open a challenge in the lab, build a schedule step by step, and the lab judges the run you made. {won} of{' '}
          {CHALLENGES.length} won.
        </p>
      </header>
      <ul className="ll-challenge-list">
        {CHALLENGES.map((challenge) => (
          <li key={challenge.id}>
            <ChallengeCard
              challenge={challenge}
              isActive={active === challenge.id}
              won={state.progress.challenges[challenge.id]?.won === true}
              hints={state.progress.challenges[challenge.id]?.hints ?? 0}
              judgement={judgements[challenge.id] ?? null}
              onStart={() => {
                openedOn.current = currentTrace;
                setActive(challenge.id);
                setJudgements((before) => {
                  const { [challenge.id]: _, ...rest } = before;
                  return rest;
                });
                onOpenScenario({ scenarioId: challenge.scenarioId, settings: { ...challenge.settings }, schedule: [], position: null });
              }}
              onCheck={() => {
                setActive(challenge.id);
                const judgement = challenge.judge(currentTrace);
                setJudgements((before) => ({ ...before, [challenge.id]: judgement }));
                if (judgement.won) store.recordChallengeWon(challenge.id);
              }}
              onHint={() => store.revealHints(challenge.id, (state.progress.challenges[challenge.id]?.hints ?? 0) + 1)}
              onOpenChapter={onOpenChapter}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

interface ChallengeCardProps {
  challenge: Challenge;
  isActive: boolean;
  won: boolean;
  hints: number;
  judgement: Judgement | null;
  onStart: () => void;
  onCheck: () => void;
  onHint: () => void;
  onOpenChapter?: ((chapterId: string) => void) | undefined;
}

function ChallengeCard({ challenge, isActive, won, hints, judgement, onStart, onCheck, onHint, onOpenChapter }: ChallengeCardProps) {
  const id = useId();
  const scenario = findScenario(challenge.scenarioId);
  const chapter = findChapter(challenge.chapterId);
  const shownHints = challenge.hints.slice(0, hints);
  return (
    <article className={['ll-challenge', isActive ? 'is-active' : '', won ? 'is-won' : ''].join(' ').trim()} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {challenge.title} {won ? <span className="ll-badge is-done">Won ✓</span> : <span className="ll-badge">Not yet</span>}
      </h3>
      <p>{challenge.goal}</p>
      <p className="ll-meta">
        Scenario: {scenario?.title ?? challenge.scenarioId}. Claim: {STRATEGY_LABELS[challenge.settings.strategy]}; fencing{' '}
        {challenge.settings.fencing ? 'on' : 'off'}.
        {chapter ? (
          <>
            {' '}
            Background:{' '}
            <LessonLink target={{ kind: 'chapter', id: chapter.id }} onOpen={onOpenChapter}>
              {chapter.title}
            </LessonLink>
            .
          </>
        ) : null}
      </p>
      <div className="ll-actions">
        <button type="button" className="ll-primary" onClick={onStart}>
          Open in the lab
        </button>
        <button type="button" onClick={onCheck}>
          Check my run
        </button>
        <button type="button" onClick={onHint} disabled={hints >= challenge.hints.length} aria-describedby={shownHints.length > 0 ? `${id}-hints` : undefined}>
          {hints >= challenge.hints.length ? 'No more hints' : `Show hint ${hints + 1} of ${challenge.hints.length}`}
        </button>
      </div>
      {shownHints.length > 0 ? (
        <ol id={`${id}-hints`} className="ll-hints" aria-label="Hints">
          {shownHints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ol>
      ) : null}
      {/* biome-ignore lint/a11y/useSemanticElements: <output> may only hold phrasing content, and the feedback has paragraphs and lists */}
      <div role="status" aria-live="polite" className="ll-status">
        {judgement ? (
          <div className={judgement.won ? 'll-feedback is-right' : 'll-feedback is-info'}>
            <p className="ll-verdict">{judgement.won ? 'Challenge complete.' : 'Not yet.'}</p>
            <p>{judgement.message}</p>
            {judgement.steps.length > 0 ? <p className="ll-meta">See {listSteps(judgement.steps)} on the timeline.</p> : null}
          </div>
        ) : null}
        {won ? <p className="ll-lesson-note">{challenge.lesson}</p> : null}
      </div>
    </article>
  );
}
