import type { Exploration } from '../../sim/exploration';
import { WitnessLink } from './WitnessLink';

/**
 * The outcome groups as a bar chart in plain HTML: each row says its outcome and count in words, so the
 * bar (whose colour and pattern only repeat "no anomaly" or "anomaly") is never the only way to read it.
 */
export function OutcomeBars({ exploration }: { exploration: Exploration }) {
  const { groups, total } = exploration;
  return (
    <ul className="outcome-bars" aria-label="Outcome groups">
      {groups.map((group) => {
        const share = total === 0 ? 0 : group.count / total;
        const percent = share * 100;
        const shown = percent > 0 && percent < 1 ? '<1' : Math.round(percent).toString();
        return (
          <li key={group.key} className={`outcome-bar ${group.key === 'none' ? 'is-clean' : 'is-anomaly'}`}>
            <span className="outcome-bar-label">{group.label}</span>
            <span className="outcome-bar-track" aria-hidden="true">
              <span className="outcome-bar-fill" style={{ width: `${Math.max(percent, 0.5)}%` }} />
            </span>
            <span className="outcome-bar-count">
              {group.count.toLocaleString('en')} of {total.toLocaleString('en')} ({shown}%)
            </span>
            <WitnessLink exploration={exploration} group={group} />
          </li>
        );
      })}
    </ul>
  );
}
