import type { MouseEvent, ReactNode } from 'react';
import type { ComparisonTarget } from '../../lessons/queue-comparison';
import { encodeView } from '../../store/permalink';

/** The address a cell opens: the lab at the scenario's start under that strategy and fencing, or the backpressure lab. */
function comparisonHref(target: ComparisonTarget): string {
  // The backpressure view's bare link opens its default preset (store/backpressure-link.ts).
  if (target.kind === 'backpressure') return '#backpressure';
  const settings = { strategy: target.strategy, fencing: target.fencing };
  return `#${encodeView({ scenarioId: target.scenarioId, settings, schedule: [], position: 0 })}`;
}

/**
 * A real link (the page follows hash changes, so Back returns to the view before it, and a new tab opens
 * the same view); a plain click also brings the lab into view.
 */
export function OpenInLab({ target, children }: { target: ComparisonTarget; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (target.kind === 'backpressure' || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    document.getElementById('lab-top')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };
  return (
    <a href={comparisonHref(target)} onClick={onClick}>
      {children}
    </a>
  );
}
