import type { MouseEvent } from 'react';
import { RECORDING_PLANS, type RecordingId, recording } from '../../recordings';
import { encodeView } from '../../store/permalink';

/** The address that opens a recording in the lab before its first step: a link like any view's. */
function recordingHref(id: RecordingId): string {
  const { scenarioId, settings } = recording(id);
  return `#${encodeView({ scenarioId, settings, schedule: [], position: 0 })}`;
}

/**
 * Links that open traces recorded on a real server in the lab (the page follows hash changes, so Back
 * returns to the view before, and a new tab opens the same recording); a plain click brings the lab into view.
 */
export function RecordingLinks({ ids }: { ids: readonly RecordingId[] | undefined }) {
  if (!ids || ids.length === 0) return null;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <ul className="ll-recordings" aria-label="Recorded on PostgreSQL">
      {ids.map((id) => {
        const plan = RECORDING_PLANS.find((candidate) => candidate.id === id)!;
        return (
          <li key={id}>
            <a href={recordingHref(id)} onClick={onClick}>
              Step through {plan.shows} (recorded on PostgreSQL {recording(id).serverVersion}) →
            </a>
          </li>
        );
      })}
    </ul>
  );
}
