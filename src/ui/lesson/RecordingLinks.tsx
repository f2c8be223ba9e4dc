import type { MouseEvent } from 'react';
import { RECORDING_PLANS, type RecordingId } from '../../recordings';
import { encodeView } from '../../store/permalink';
import { recordingView } from '../../store/view';

/**
 * Links that open traces recorded on a real server in the lab, before their first step (the page follows
 * hash changes, so Back returns to the view before, and a new tab opens the same recording); a plain click
 * brings the lab into view. The lab's banner then names the server's version. `onOpen`: what else a plain
 * click does where the link is shown (a level's lesson leaves the level: a recording is not the learner's run).
 */
export function RecordingLinks({ ids, onOpen }: { ids: readonly RecordingId[] | undefined; onOpen?: () => void }) {
  if (!ids || ids.length === 0) return null;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    onOpen?.();
    document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <ul className="ll-recordings" aria-label="Recorded on PostgreSQL">
      {ids.map((id) => {
        const plan = RECORDING_PLANS.find((candidate) => candidate.id === id)!;
        return (
          <li key={id}>
            <a href={`#${encodeView(recordingView(id))}`} onClick={onClick}>
              Step through {plan.shows}, recorded on PostgreSQL →
            </a>
          </li>
        );
      })}
    </ul>
  );
}
