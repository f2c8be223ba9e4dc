import type { CSSProperties } from 'react';
import { CONTRACTS } from '../../sql/analyze/contract';
import { useLab } from '../../store/react';
import { ROLE_NAMES, type YourSqlRole } from '../../store/your-sql';
import { type BindingRow, rowBindings } from '../../store/your-sql-params';
import { valueWords } from '../../sim/param-bindings';

/** The lab's values by the names a box takes, each with what it is: "worker (text), lease (lease seconds, integer)". */
function namesSaid(role: YourSqlRole): string {
  return valueWords(role)
    .map((word, i) => {
      const { name, type } = CONTRACTS[role].parameters[i]!;
      return `${word} (${name === word ? '' : `${name}, `}${type})`;
    })
    .join(', ');
}

/** A box as wide as its value ('0 seconds' whole), never narrower than the lab's longest name nor wider than a short line. */
function fittedChars(value: string): number {
  return Math.min(Math.max(Array.from(value).length, 10), 40);
}

/** The row: `$1 = [1]  $2 = [worker]  $3 = [lease]`, each value by check's --param rules on Apply, touched or not. */
export function ParamsRow({ of: role, row }: { of: YourSqlRole; row: BindingRow }) {
  const bind = useLab((s) => s.bindYourSql);
  const words = valueWords(role);
  const { positions, valueAt } = row;
  const change = (position: number, value: string) => bind(role, rowBindings(role, row, { position, value }));
  const id = `your-sql-${role}-params`;
  return (
    <fieldset className="your-sql-bind" aria-describedby={`${id}-how`}>
      <legend className="your-sql-label">Parameters of your {ROLE_NAMES[role]}</legend>
      <p id={`${id}-how`} className="your-sql-type">
        Your {ROLE_NAMES[role]} numbers its own parameters. Give each $n a value: {words.length > 0 ? `${namesSaid(role)}, ` : ''}a number, or 'text' in single
        quotes.
      </p>
      <div className="your-sql-bind-list">
        {positions.map((n) => (
          <label key={n} className="your-sql-bind-one">
            <code>${n}</code> =
            <input
              type="text"
              list={`${id}-names`}
              value={valueAt(n)}
              style={{ '--value-chars': fittedChars(valueAt(n)) } as CSSProperties}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              onChange={(e) => change(n, e.target.value)}
            />
          </label>
        ))}
      </div>
      <datalist id={`${id}-names`}>
        {words.map((word) => (
          <option key={word} value={word} />
        ))}
      </datalist>
    </fieldset>
  );
}
