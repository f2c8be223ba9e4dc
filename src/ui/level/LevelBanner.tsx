/**
 * The level in play, directly above the timeline: which level, the idea it practises, its goal, the
 * verdict on the run after every step (the win told when it happens, to a screen reader too), hints, the
 * record, "Next level" and "Leave level". On a phone it is a title and one row of buttons until opened.
 */
import './level.css';
import { useEffect, useId, useState } from 'react';
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
  const hintLabel = `Show hint ${hints + 1} of ${level.hints.length}`;
  // The controls a level's moves use are shown while it is in play (a crash on the race, say), whatever
  // its scenario's own script uses: the learner never needs "All controls" to play a level.
  useEffect(() => {
    lab.getState().setLevelMoves(level.solution);
    return () => lab.getState().setLevelMoves([]);
  }, [lab, level]);
  return (
    <section className={open ? 'level-banner is-open' : 'level-banner'} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="level-title">
        {level.title}
      </h2>
      <div className="level-bar">
        <p className="level-where">
          Level {levelNumber(level.id)} of {LEVELS.length}
          {open ? (
            <>
              {' '}
              · practises <em>{levelIdea(level)}</em>
            </>
          ) : null}{' '}
          · <span className="level-record">{recordLabel(record)}</span>
        </p>
        <div className="level-actions">
          <button type="button" aria-label="Goal" aria-expanded={open} aria-controls={`${id}-more`} onClick={() => setOpen(!open)}>
            Goal {open ? '▴' : '▾'}
          </button>
          <button
            type="button"
            aria-label={hints >= level.hints.length ? undefined : hintLabel}
            disabled={hints >= level.hints.length}
            onClick={() => {
              progress.revealHints(level.id, hints + 1);
              setOpen(true);
            }}
          >
            {hints >= level.hints.length ? 'No more hints' : phone ? 'Hint' : hintLabel}
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
      </div>
      {open ? (
        <div id={`${id}-more`} className="level-more">
          <p className="level-goal">
            <strong>Goal:</strong> {level.goal}
          </p>
          {/* Once solved here, the verdict and the lesson take the hints' place (the record counts them). */}
          {judgement?.won ? null : <LevelHints hints={level.hints} shown={hints} />}
        </div>
      ) : null}
      <LevelVerdict judgement={judgement} detailed={open} lesson={level.lesson} />
    </section>
  );
}
