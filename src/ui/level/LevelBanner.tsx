/**
 * The level in play, directly above the timeline: which level, the idea it practises, its goal, the
 * verdict on the run after every step (the win told when it happens, to a screen reader too), hints, the
 * record, "Next level" and "Leave level". On a phone it is a title and one row of buttons until opened.
 */
import './level.css';
import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { findLevel, LEVELS, levelIdea, levelNumber, levelRecord, nextLevel, recordLabel } from '../../lessons/levels';
import type { Challenge } from '../../lessons/types';
import type { ProgressStore } from '../../store/progress-store';
import { useLabStore } from '../../store/react';
import { PHONE_QUERY, useMediaQuery } from '../hooks';
import { useLessonProgress } from '../lesson/useLessonProgress';
import { enterLevel } from './enter';
import { keepLevelRoom } from './level-room';
import { LevelHints } from './LevelHints';
import { LevelVerdict } from './LevelVerdict';
import { useLeaveLevelWithItsScenario } from './useLeaveLevel';
import { useLevelJudgement } from './useLevelJudgement';

/** `openAtFirst`: the goal open or closed as it was before a reload (level-room.ts); else open, closed on a phone. */
export function LevelBanner({ progress, levelId, openAtFirst }: { progress: ProgressStore; levelId: string; openAtFirst?: boolean | undefined }) {
  useLeaveLevelWithItsScenario(progress);
  const level = findLevel(levelId);
  return level ? <Banner key={level.id} progress={progress} level={level} openAtFirst={openAtFirst} /> : null;
}

/** Keeps the room the banner takes, as it changes, for a reload to hold before the banner is back (LevelSlot.tsx). */
function useKeptRoom(banner: RefObject<HTMLElement | null>, level: string, open: boolean): void {
  useEffect(() => {
    const element = banner.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => keepLevelRoom({ level, height: element.getBoundingClientRect().height, open }));
    observer.observe(element);
    return () => observer.disconnect();
  }, [banner, level, open]);
}

function Banner({ progress, level, openAtFirst }: { progress: ProgressStore; level: Challenge; openAtFirst: boolean | undefined }) {
  const lab = useLabStore();
  const { state } = useLessonProgress(progress);
  const phone = useMediaQuery(PHONE_QUERY);
  const [open, setOpen] = useState(openAtFirst ?? !phone);
  const id = useId();
  const section = useRef<HTMLElement>(null);
  useKeptRoom(section, level.id, open);
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
    <section ref={section} className={open ? 'level-banner is-open' : 'level-banner'} aria-labelledby={`${id}-title`}>
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
      <LevelVerdict judgement={judgement} detailed={open} level={level} onOpenRecording={() => progress.setLevel(null)} />
    </section>
  );
}
