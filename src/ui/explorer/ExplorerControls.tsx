import { ISOLATION_WORDS, PGLITE_HAS_ONE_SESSION } from '../../sim/isolation';
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
  // A recording's level: the explorer plays every schedule on PGlite, which cannot run it.
  const level = settings.isolation;
  if (level) {
    return (
      <div className="explorer-controls">
        <p className="explorer-intro">
          Every schedule of <strong>{scenario.title}</strong> at {ISOLATION_WORDS[level]} needs a real PostgreSQL server: {PGLITE_HAS_ONE_SESSION}. The trace
          above was recorded on one. To explore them all, run{' '}
          <code>
            npm run sim -- explore {scenario.id} --strategy {settings.strategy} --isolation {level} --db postgres://…
          </code>
          , or explore this claim at READ COMMITTED here (the recording's banner runs it).
        </p>
      </div>
    );
  }
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
