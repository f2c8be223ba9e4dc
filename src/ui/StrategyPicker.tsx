import { STRATEGIES, STRATEGY_LABELS, type Strategy } from '../sim/types';
import { useLab } from '../store/react';

export function StrategyPicker() {
  const strategy = useLab((s) => s.settings.strategy);
  const chooseStrategy = useLab((s) => s.chooseStrategy);
  return (
    <div className="field">
      <label htmlFor="strategy">Strategy</label>
      <select id="strategy" value={strategy} onChange={(e) => void chooseStrategy(e.target.value as Strategy)}>
        {STRATEGIES.map((s) => (
          <option key={s} value={s}>
            {STRATEGY_LABELS[s]}
          </option>
        ))}
      </select>
    </div>
  );
}
