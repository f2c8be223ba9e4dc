import { CONTRACTS } from '../../sql/analyze/contract';
import { useLab } from '../../store/react';
import { ROLE_NAMES, type YourSqlRole } from '../../store/your-sql';
import { rolePrefix, splitBinding, valueWords } from '../../sim/param-bindings';

/**
 * The $n a statement's text seems to use, outside comments and quoted text: only whether to show the row.
 * The parser (loaded on the first Apply) decides what the statement really uses, by check's rules.
 */
function positionsWritten(text: string): number[] {
  const bare = text.replace(/--[^\n]*/g, '').replace(/'(?:[^']|'')*'/g, '');
  return [...bare.matchAll(/\$(\d{1,5})/g)].map((match) => Number(match[1]));
}

/** The values the row shows for each $n of a role's statement; null when it shows no row. */
export interface BindingRow {
  positions: number[];
  valueAt: (position: number) => string;
}

/**
 * The statement's own parameters (check's --param) get a row only when it uses a $n past the ones the lab
 * gives its role (pgmq's LIMIT $1 batch size puts the worker in $2 and the lease in $3), or once some are bound.
 */
export function bindingRow(role: YourSqlRole, text: string, params: readonly string[]): BindingRow | null {
  const bound = new Map(
    params.flatMap((flag) => {
      const parts = splitBinding(flag);
      return parts && parts.roleWord === role ? [[parts.position, parts.value] as const] : [];
    }),
  );
  const written = Math.max(0, ...positionsWritten(text));
  if (bound.size === 0 && written <= CONTRACTS[role].parameters.length) return null;
  const words = valueWords(role);
  return {
    positions: Array.from({ length: Math.max(written, ...bound.keys()) }, (_, i) => i + 1),
    // Until one is bound, each $n the lab gives the role shows what the lab gives it.
    valueAt: (n) => (bound.size === 0 ? (words[n - 1] ?? '') : (bound.get(n) ?? '')),
  };
}

/** The row: `$1 = [1]  $2 = [worker]  $3 = [lease]`, each value by check's --param rules on Apply. */
export function ParamsRow({ of: role, row }: { of: YourSqlRole; row: BindingRow }) {
  const bind = useLab((s) => s.bindYourSql);
  const prefix = rolePrefix(role);
  const words = valueWords(role);
  const { positions, valueAt } = row;
  const change = (position: number, value: string) =>
    bind(
      role,
      positions
        // Kept as typed (a space inside 'text' is part of it); only an empty box binds nothing.
        .map((n) => [n, n === position ? value : valueAt(n)] as const)
        .filter(([, v]) => v.trim() !== '')
        .map(([n, v]) => `${prefix}${n}=${v}`),
    );
  const id = `your-sql-${role}-params`;
  return (
    <fieldset className="your-sql-bind" aria-describedby={`${id}-how`}>
      <legend className="your-sql-label">Parameters of your {ROLE_NAMES[role]}</legend>
      <p id={`${id}-how`} className="your-sql-type">
        Your {ROLE_NAMES[role]} numbers its own parameters. Give each $n a value: {words.join(', ')}, a number, or 'text' in single quotes.
      </p>
      <div className="your-sql-bind-list">
        {positions.map((n) => (
          <label key={n} className="your-sql-bind-one">
            <code>${n}</code> =
            <input
              type="text"
              list={`${id}-names`}
              value={valueAt(n)}
              size={9}
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
