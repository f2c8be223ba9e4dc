import type { MouseEvent } from 'react';
import type { Exploration, OutcomeGroup } from '../../sim/exploration';
import { encodeView } from '../../store/permalink';

/**
 * A shortest schedule that ends in this group, as a real link to the lab's view of it. Following it opens
 * the schedule in the timeline exactly as a shared link would (the page follows hash changes); the click
 * also brings the timeline into view. Opened in a new tab, it is the same permalink.
 */
export function WitnessLink({ exploration, group }: { exploration: Exploration; group: OutcomeGroup }) {
  const fragment = encodeView({ scenarioId: exploration.scenario, settings: exploration.settings, schedule: group.witness, position: null });
  const steps = group.witness.length;
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <span className="outcome-bar-witness">
      <a href={`#${fragment}`} onClick={onClick}>
        Open a shortest witness<span className="visually-hidden"> of {group.label}</span>
      </a>{' '}
      <span className="muted">
        ({steps} step{steps === 1 ? '' : 's'}: <code>{group.witness.join(',') || 'none'}</code>)
      </span>
    </span>
  );
}
