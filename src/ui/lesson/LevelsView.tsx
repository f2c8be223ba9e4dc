/**
 * The levels, in the suggested order (the lesson's chapters): each says the idea it practises and the
 * learner's record of it, and "Play" puts the lab in it: its scenario and settings from a fresh start,
 * its goal in a banner above the timeline, judged after every step (ui/level/).
 */
import './lesson.css';
import { useEffect, useRef } from 'react';
import { LEVELS, levelIdea, levelRecord, recordLabel } from '../../lessons/levels';
import type { Challenge, ChapterId, OpenScenario } from '../../lessons/types';
import type { ProgressStore } from '../../store/progress-store';
import { LessonLink } from './links';
import { useLessonProgress } from './useLessonProgress';

export interface LevelsViewProps {
  /** Opens the level's scenario, with its settings and an empty schedule. */
  onOpenScenario: OpenScenario;
  onOpenChapter?: (chapterId: ChapterId) => void;
  progressStore?: ProgressStore;
  /** The level a link pointed at: scrolled to. */
  challengeId?: string;
}

export function LevelsView({ onOpenScenario, onOpenChapter, progressStore, challengeId }: LevelsViewProps) {
  const { state, store } = useLessonProgress(progressStore);
  const solved = LEVELS.filter((level) => state.progress.challenges[level.id]?.won).length;
  const play = (level: Challenge) => {
    // The level first, then its scenario: the scenario's change is then not taken for leaving the level.
    store.setLevel(level.id);
    onOpenScenario({ scenarioId: level.scenarioId, settings: { ...level.settings }, schedule: [], position: null });
  };
  return (
    <section className="ll-lesson ll-challenges" aria-labelledby="ll-levels-title">
      <header>
        <h2 id="ll-levels-title">Levels: be the scheduler</h2>
        <p>
          You decide who moves next. Play a level and its goal stays above the timeline; the lab judges your run after every step. The levels follow the
          chapters; skip any. {solved} of {LEVELS.length} solved.
        </p>
      </header>
      <ol className="ll-challenge-list">
        {LEVELS.map((level, index) => (
          <li key={level.id}>
            <LevelCard
              level={level}
              number={index + 1}
              record={recordLabel(levelRecord(state.progress, level))}
              inPlay={state.progress.currentLevel === level.id}
              linked={challengeId === level.id}
              onPlay={() => play(level)}
              onOpenChapter={onOpenChapter}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}

interface LevelCardProps {
  level: Challenge;
  number: number;
  record: string;
  inPlay: boolean;
  linked: boolean;
  onPlay: () => void;
  onOpenChapter?: ((chapterId: ChapterId) => void) | undefined;
}

function LevelCard({ level, number, record, inPlay, linked, onPlay, onOpenChapter }: LevelCardProps) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (linked) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [linked]);
  const titleId = `ll-level-${level.id}`;
  return (
    <article ref={ref} className={['ll-challenge', inPlay ? 'is-active' : '', linked ? 'is-linked' : ''].join(' ').trim()} aria-labelledby={titleId}>
      <h3 id={titleId}>
        Level {number}: {level.title} <span className="ll-badge">{record}</span>
      </h3>
      <p className="ll-meta">
        Practises{' '}
        <LessonLink target={{ kind: 'chapter', id: level.chapterId }} onOpen={onOpenChapter}>
          {levelIdea(level)}
        </LessonLink>
        .
      </p>
      <p>{level.goal}</p>
      <div className="ll-actions">
        <button type="button" className="ll-primary" onClick={onPlay}>
          {inPlay ? 'Restart this level' : 'Play this level'}
        </button>
      </div>
    </article>
  );
}
