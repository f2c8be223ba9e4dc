/** The progress notice (reset, migrated, cannot save) and the "Reset my progress" control. */
import './lesson.css';
import { useEffect, useRef, useState } from 'react';
import { chaptersDone, quizScore } from '../../lessons/progress';
import type { ProgressStore } from '../../store/progress-store';
import { CHALLENGES } from '../../lessons/challenges';
import { CHAPTERS } from '../../lessons/chapters';
import { useLessonProgress } from './useLessonProgress';

export function ProgressNotice({ progressStore }: { progressStore?: ProgressStore }) {
  const { state, store } = useLessonProgress(progressStore);
  const notice = state.notice;
  if (!notice) return null;
  const warning =
    notice.kind === 'save-failed' ||
    notice.kind === 'storage-unavailable' ||
    notice.kind === 'reset-corrupt' ||
    notice.kind === 'reset-version' ||
    notice.kind === 'partly-unreadable' ||
    notice.kind === 'read-only-newer';
  return (
    <div className={warning ? 'll-notice is-warning' : 'll-notice'} role={warning ? 'alert' : 'status'}>
      <p>{notice.message}</p>
      <button type="button" onClick={() => store.dismissNotice()}>
        Dismiss
      </button>
    </div>
  );
}

export function ProgressSummary({ progressStore }: { progressStore?: ProgressStore }) {
  const { state } = useLessonProgress(progressStore);
  const score = quizScore(state.progress);
  const won = CHALLENGES.filter((c) => state.progress.challenges[c.id]?.won).length;
  return (
    <p className="ll-progress-summary">
      Chapters {chaptersDone(state.progress)}/{CHAPTERS.length} · Quiz {score.correct}/{score.total} · Levels {won}/{CHALLENGES.length}
      {state.readOnly ? (
        <span className="ll-meta"> · read-only (saved by a newer version)</span>
      ) : state.persistent ? null : (
        <span className="ll-meta"> · not saved in this browser</span>
      )}
    </p>
  );
}

export function ResetProgress({ progressStore }: { progressStore?: ProgressStore }) {
  const { store } = useLessonProgress(progressStore);
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const start = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) keep.current?.focus();
    else if (wasAsking.current) start.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" ref={start} className="ll-reset" onClick={() => setAsking(true)}>
        Reset my progress
      </button>
    );
  }
  return (
    <fieldset className="ll-confirm">
      <legend>Erase your finished chapters, quiz answers and solved levels? This cannot be undone.</legend>
      <button
        type="button"
        className="ll-danger"
        onClick={() => {
          store.reset();
          setAsking(false);
        }}
      >
        Erase my progress
      </button>
      <button type="button" ref={keep} onClick={() => setAsking(false)}>
        Keep it
      </button>
    </fieldset>
  );
}
