import { useExplorer } from './context';

/** A progress bar while exploring (the words beside it are not announced: the status line is). */
export function ExplorerProgress() {
  const phase = useExplorer((s) => s.phase);
  const progress = useExplorer((s) => s.progress);
  if (phase !== 'starting' && phase !== 'running') return null;
  const fraction = progress?.fraction ?? 0;
  const words =
    phase === 'starting'
      ? 'Starting a second Postgres for the explorer…'
      : `${Math.floor(fraction * 100)}% · ${(progress?.counted ?? 0).toLocaleString('en')} schedules counted · ${progress?.statesVisited ?? 0} states`;
  return (
    <div className="explorer-progress">
      {/* No value while Postgres starts: an indeterminate bar. */}
      <progress aria-label="Exploration progress" max={1} value={phase === 'starting' ? undefined : fraction} />
      <span className="explorer-progress-words">{words}</span>
    </div>
  );
}
