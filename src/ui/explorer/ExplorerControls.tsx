import { STRATEGY_LABELS } from '../../sim/types';
import { useLab } from '../../store/react';
import { useScenario } from '../hooks';
import { useExplorer } from './context';

/** What will be explored (the lab's current choices), and the buttons that start and stop it. */
export function ExplorerControls() {
  const scenario = useScenario();
  const settings = useLab((s) => s.settings);
  const phase = useExplorer((s) => s.phase);
  const explore = useExplorer((s) => s.explore);
  const cancel = useExplorer((s) => s.cancel);
  const busy = phase === 'starting' || phase === 'running';
  return (
    <div className="explorer-controls">
      <p className="explorer-intro">
        One interleaving can be lucky. Play <em>all</em> of them for <strong>{scenario.title}</strong> with{' '}
        {settings.definition?.label ?? STRATEGY_LABELS[settings.strategy]}, fencing {settings.fencing ? 'on' : 'off'}, and count how they end.
      </p>
      <div className="explorer-buttons">
        <button type="button" className="primary" disabled={busy} onClick={() => void explore({ scenarioId: scenario.id, settings })}>
          Explore all schedules
        </button>
        {busy ? (
          <button type="button" onClick={cancel}>
            Cancel exploration
          </button>
        ) : null}
      </div>
    </div>
  );
}
