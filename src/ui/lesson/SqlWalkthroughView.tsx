/** A lab SQL file explained clause by clause; choosing a clause highlights its lines. */
import { useState } from 'react';
import { resolveClauses } from '../../lessons/sql-lines';
import type { SqlWalkthrough } from '../../lessons/types';
import { labStatementText } from '../../strategies';
import { SqlCode } from './SqlCode';

export function SqlWalkthroughView({ walkthrough }: { walkthrough: SqlWalkthrough }) {
  const [selected, setSelected] = useState<number | null>(walkthrough.clauses.length === 1 ? 0 : null);
  const sql = labStatementText(walkthrough.sqlId)?.text ?? null;
  if (sql === null) return null;
  const clauses = resolveClauses(sql, walkthrough.clauses);
  const active = selected === null ? undefined : clauses[selected];
  const highlighted = new Set<number>();
  if (active) for (let line = active.start; line <= active.end; line++) highlighted.add(line);
  return (
    <div className="ll-walkthrough">
      <SqlCode sql={sql} caption={walkthrough.caption} highlighted={highlighted} />
      <ol className="ll-clauses">
        {clauses.map((clause, index) => (
          <li key={`${clause.start}-${clause.text}`} className={selected === index ? 'is-selected' : undefined}>
            <button type="button" className="ll-clause-button" aria-pressed={selected === index} onClick={() => setSelected(selected === index ? null : index)}>
              <span className="ll-clause-lines">{clause.start === clause.end ? `Line ${clause.start}` : `Lines ${clause.start}–${clause.end}`}</span>{' '}
              <code>{clause.text}</code>
            </button>
            <p>{clause.note}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
