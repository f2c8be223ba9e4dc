import { LAB_STRATEGY_IDS, QUEUE_STRATEGY_IDS } from '../strategies';
import { STRATEGY_LABELS, type Strategy } from '../sim/types';
import { useLab } from '../store/react';

function options(ids: readonly Strategy[]) {
  return ids.map((s) => (
    <option key={s} value={s}>
      {STRATEGY_LABELS[s]}
    </option>
  ));
}

export function StrategyPicker() {
  const strategy = useLab((s) => s.settings.strategy);
  const chooseStrategy = useLab((s) => s.chooseStrategy);
  return (
    <div className="field">
      <label htmlFor="strategy">Strategy</label>
      <select id="strategy" value={strategy} onChange={(e) => void chooseStrategy(e.target.value as Strategy)}>
        <optgroup label="The lab's claims">{options(LAB_STRATEGY_IDS)}</optgroup>
        <optgroup label="Production queues">{options(QUEUE_STRATEGY_IDS)}</optgroup>
      </select>
    </div>
  );
}
