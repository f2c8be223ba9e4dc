import type { ComparisonCell as Cell, ComparisonRow, ComparisonTarget } from '../../lessons/queue-comparison';
import type { StrategyId } from '../../strategies';
import { OpenInLab } from './OpenInLab';

/** Said to a screen reader after a link's words, since every row has the same ones. */
function hiddenContext(target: ComparisonTarget, strategyLabel: (id: StrategyId) => string): string {
  return target.kind === 'scenario' ? ` (${strategyLabel(target.strategy)}, fencing ${target.fencing ? 'on' : 'off'})` : " (the lab's own limits)";
}

/** One answer: its text, the scenario that shows it, and the queue's incidents that answer the same question. */
export function ComparisonAnswer({ row, cell, strategyLabel }: { row: ComparisonRow; cell: Cell; strategyLabel: (id: StrategyId) => string }) {
  return (
    <td>
      <p>{cell.text}</p>
      {cell.readIn.length > 0 ? <p className="ll-meaning">Read in {cell.readIn.join(', ')}</p> : null}
      <p className="cmp-open">
        <OpenInLab target={cell.link.target}>
          ▶ {cell.link.label}
          <span className="ll-visually-hidden">{hiddenContext(cell.link.target, strategyLabel)}</span>
        </OpenInLab>
      </p>
      {cell.incidents.map((incident) => (
        <p key={incident.source} className="cmp-incident">
          Incident{' '}
          <a href={incident.url} target="_blank" rel="noreferrer noopener">
            {incident.source}
            <span className="ll-visually-hidden"> (opens in a new tab)</span>
          </a>
          :{' '}
          <OpenInLab target={incident.open.target}>
            open it<span className="ll-visually-hidden"> under {row.name}'s own guard</span>
          </OpenInLab>
          {' · '}
          <OpenInLab target={incident.fix.target}>
            its fix
            <span className="ll-visually-hidden">{hiddenContext(incident.fix.target, strategyLabel)}</span>
          </OpenInLab>
        </p>
      ))}
    </td>
  );
}
