/**
 * The level in play, directly above the timeline: which level, the idea it practises, its goal, the
 * verdict on the run after every step (the win told when it happens, to a screen reader too), hints, the
 * record, "Next level" and "Leave level". On a phone it stays two short lines until opened.
 */
import './level.css';
import { useId, useState } from 'react';
import { findLevel, LEVELS, levelIdea, levelNumber, levelRecord, nextLevel, recordLabel } from '../../lessons/levels';
import type { Challenge } from '../../lessons/types';
import type { ProgressStore } from '../../store/progress-store';
import { useLabStore } from '../../store/react';
import { PHONE_QUERY, useMediaQuery } from '../hooks';
import { useLessonProgress } from '../lesson/useLessonProgress';
import { enterLevel } from './enter';
import { LevelHints } from './LevelHints';
import { LevelVerdict } from './LevelVerdict';
import { useLeaveLevelWithItsScenario } from './useLeaveLevel';
import { useLevelJudgement } from './useLevelJudgement';

export function LevelBanner({ progress, levelId }: { progress: ProgressStore; levelId: string }) {
  useLeaveLevelWithItsScenario(progress);
  const level = findLevel(levelId);
  return level ? <Banner key={level.id} progress={progress} level={level} /> : null;
}

function Banner({ progress, level }: { progress: ProgressStore; level: Challenge }) {
  const lab = useLabStore();
  const { state } = useLessonProgress(progress);
  const phone = useMediaQuery(PHONE_QUERY);
  const [open, setOpen] = useState(!phone);
  const id = useId();
  const judgement = useLevelJudgement(level, progress);
  const record = levelRecord(state.progress, level);
  const hints = state.progress.challenges[level.id]?.hints ?? 0;
  const next = nextLevel(level.id);
  return (
    <section className="level-banner" aria-labelledby={`${id}-title`}>
      <div className="level-head">
        <p className="level-where">
          Level {levelNumber(level.id)} of {LEVELS.length} · practises <em>{levelIdea(level)}</em> ·{' '}
          <span className={`level-record is-${record.kind}`}>{recordLabel(record)}</span>
        </p>
        <h2 id={`${id}-title`} className="level-title">
          {level.title}
        </h2>
      </div>
      <LevelVerdict judgement={judgement} detailed={open} lesson={level.lesson} />
      {open ? (
        <p id={`${id}-goal`} className="level-goal">
          {level.goal}
        </p>
      ) : null}
      {open ? <LevelHints hints={level.hints} shown={hints} /> : null}
      <div className="level-actions">
        <button type="button" aria-expanded={open} aria-controls={`${id}-goal`} onClick={() => setOpen(!open)}>
          {open ? 'Less' : 'Goal and hints'}
        </button>
        <button
          type="button"
          disabled={hints >= level.hints.length}
          onClick={() => {
            progress.revealHints(level.id, hints + 1);
            setOpen(true);
          }}
        >
          {hints >= level.hints.length ? 'No more hints' : `Show hint ${hints + 1} of ${level.hints.length}`}
        </button>
        {next ? (
          <button type="button" onClick={() => enterLevel(progress, lab, next)}>
            Next level
          </button>
        ) : null}
        <button type="button" onClick={() => progress.setLevel(null)}>
          Leave level
        </button>
      </div>
    </section>
  );
}
