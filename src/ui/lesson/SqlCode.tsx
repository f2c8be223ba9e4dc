/** SQL with line numbers; some lines may be highlighted. */
import { sqlLines } from '../../lessons/sql-lines';

export function SqlCode({ sql, caption, highlighted }: { sql: string; caption?: string; highlighted?: ReadonlySet<number> }) {
  const lines = sqlLines(sql).map((text, index) => ({ text, number: index + 1 }));
  return (
    <figure className="ll-sql">
      {caption ? <figcaption>{caption}</figcaption> : null}
      <pre>
        <code>
          {lines.map((line) => (
            <span key={line.number} className={highlighted?.has(line.number) ? 'll-sql-line is-highlighted' : 'll-sql-line'}>
              <span className="ll-sql-number" aria-hidden="true">
                {line.number}
              </span>
              {line.text || ' '}
              {highlighted?.has(line.number) ? <span className="ll-visually-hidden"> (highlighted)</span> : null}
            </span>
          ))}
        </code>
      </pre>
    </figure>
  );
}
