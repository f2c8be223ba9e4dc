import { listSteps } from '../../sim/anomalies';
import type { Challenge, Judgement } from '../../lessons/types';
import { RecordingLinks } from '../lesson/RecordingLinks';

/**
 * The verdict on the run at the cursor. A win is said in a live region (present before it, so a screen
 * reader hears it when it comes); the "not yet" guidance is shown, not announced: the lab's outcome
 * already speaks every step. `detailed`: the judge's whole sentence (on a phone, only once opened). Once
 * won, the lesson and the recordings it speaks of; opening one leaves the level (`onOpenRecording`).
 */
export function LevelVerdict({
  judgement,
  detailed,
  level,
  onOpenRecording,
}: {
  judgement: Judgement | null;
  detailed: boolean;
  level: Pick<Challenge, 'lesson' | 'recordings'>;
  onOpenRecording: () => void;
}) {
  const won = judgement?.won === true;
  return (
    <div className={won ? 'level-verdict is-won' : 'level-verdict'}>
      <p className="level-announce" aria-live="polite" aria-atomic="true">
        {won ? (
          <>
            <strong>Level solved ✓</strong> <span className={detailed ? undefined : 'visually-hidden'}>{judgement.message}</span>
          </>
        ) : null}
      </p>
      {judgement && !won && detailed ? <p className="level-not-yet">Not yet: {judgement.message}</p> : null}
      {judgement && detailed && judgement.steps.length > 0 ? <p className="level-see">See {listSteps(judgement.steps)} on the timeline.</p> : null}
      {won && detailed ? <p className="level-lesson">{level.lesson}</p> : null}
      {won && detailed ? <RecordingLinks ids={level.recordings} onOpen={onOpenRecording} /> : null}
    </div>
  );
}
