import { LIMIT_SCENARIOS } from '../scenarios';
import { LAB_STRATEGY_IDS, LIMIT_STRATEGY_IDS, QUEUE_STRATEGY_IDS } from '../strategies';
import { STRATEGY_LABELS, type Strategy } from '../sim/types';
import { useLab } from '../store/react';
import { YOUR_SQL_LABEL } from '../store/your-sql';
import { YOUR_SQL_STRATEGY } from '../store/your-sql-link';
import { useScenario } from './hooks';

function options(ids: readonly Strategy[]) {
  return ids.map((s) => (
    <option key={s} value={s}>
      {STRATEGY_LABELS[s]}
    </option>
  ));
}

export function StrategyPicker() {
  const strategy = useLab((s) => s.settings.strategy);
  // "Your SQL" while its statements play, or while its editor is open (the lab plays the old strategy until Apply).
  const yours = useLab((s) => s.settings.definition !== undefined || s.yourSql.open);
  const chooseStrategy = useLab((s) => s.chooseStrategy);
  const openYourSql = useLab((s) => s.openYourSql);
  const scenario = useScenario();
  // A claim that enforces a limit is offered with the scenarios about it (or while it is the one chosen).
  const limits = LIMIT_SCENARIOS.some((s) => s.id === scenario.id) || LIMIT_STRATEGY_IDS.includes(strategy);
  return (
    <div className="field picker-field">
      <label htmlFor="strategy">Strategy</label>
      <select
        id="strategy"
        value={yours ? YOUR_SQL_STRATEGY : strategy}
        onChange={(e) => {
          if (e.target.value === YOUR_SQL_STRATEGY) openYourSql();
          else void chooseStrategy(e.target.value as Strategy);
        }}
      >
        <optgroup label="The lab's claims">{options(LAB_STRATEGY_IDS)}</optgroup>
        <optgroup label="Production queues">{options(QUEUE_STRATEGY_IDS)}</optgroup>
        {limits ? <optgroup label="Limits">{options(LIMIT_STRATEGY_IDS)}</optgroup> : null}
        <optgroup label="Your own">
          <option value={YOUR_SQL_STRATEGY}>{YOUR_SQL_LABEL}…</option>
        </optgroup>
      </select>
    </div>
  );
}
