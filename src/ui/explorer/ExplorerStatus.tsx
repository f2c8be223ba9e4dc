import { useExplorer } from './context';

/** One line, always present, that a screen reader hears when an exploration starts, ends or stops. */
export function ExplorerStatus() {
  const phase = useExplorer((s) => s.phase);
  const error = useExplorer((s) => s.error);
  const result = useExplorer((s) => s.result);
  let text = '';
  if (phase === 'starting' || phase === 'running') text = 'Exploring…';
  else if (phase === 'cancelled') text = 'Exploration cancelled.';
  else if (phase === 'failed') text = `The exploration failed: ${error}`;
  else if (phase === 'done' && result) {
    const n = result.groups.length;
    const what =
      result.coverage === 'all' ? `all ${result.total.toLocaleString('en')} schedules` : `a sample of ${result.total.toLocaleString('en')} schedules`;
    text = `Explored ${what}: ${n} outcome${n === 1 ? '' : 's'}.`;
  }
  return <output className={`explorer-status${phase === 'failed' ? ' explorer-failed' : ''}`}>{text}</output>;
}
