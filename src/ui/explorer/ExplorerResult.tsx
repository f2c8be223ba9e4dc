import { findScenario } from '../../scenarios';
import { STRATEGY_LABELS } from '../../sim/types';
import { useLab } from '../../store/react';
import { sameTexts, yourSqlTextsOf } from '../../store/your-sql';
import { useExplorer } from './context';
import { OutcomeBars } from './OutcomeBars';

/** What the finished exploration covered, and its outcome groups. */
export function ExplorerResult() {
  const result = useExplorer((s) => s.result);
  const ms = useExplorer((s) => s.ms);
  const phase = useExplorer((s) => s.phase);
  const labScenario = useLab((s) => s.scenarioId);
  const labSettings = useLab((s) => s.settings);
  if (!result || phase !== 'done') return null;
  const title = findScenario(result.scenario)?.title ?? result.scenario;
  const setting = `${result.settings.definition?.label ?? STRATEGY_LABELS[result.settings.strategy]}, fencing ${result.settings.fencing ? 'on' : 'off'}`;
  const elsewhere =
    labScenario !== result.scenario ||
    labSettings.strategy !== result.settings.strategy ||
    !sameTexts(yourSqlTextsOf(labSettings.definition), yourSqlTextsOf(result.settings.definition)) ||
    labSettings.fencing !== result.settings.fencing;
  const seconds = ms === null ? '' : ` in ${(ms / 1000).toFixed(1)} s`;
  return (
    <div className="explorer-result">
      <p className="explorer-coverage">
        {result.coverage === 'all' ? (
          <>
            <strong>All {result.total.toLocaleString('en')} schedules</strong> of “{title}” ({setting}), played{seconds}.
          </>
        ) : (
          <>
            <strong>A seeded sample of {result.total.toLocaleString('en')} schedules</strong> (seed {result.seed}) of “{title}” ({setting}), played{seconds}.
            This is a sample, not every schedule: {result.sampledBecause ?? 'the scenario is too large to explore whole'}.
          </>
        )}
      </p>
      {elsewhere ? <p className="explorer-note muted">The lab has moved on to other choices since; explore again to count those.</p> : null}
      <OutcomeBars exploration={result} />
    </div>
  );
}
