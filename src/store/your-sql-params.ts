/**
 * The Parameters row under a statement of "Your SQL" (ui/your-sql/ParamsRow.tsx): whether it shows, the
 * value in each box, and the bindings those boxes make. What the boxes show is what Apply runs and the link
 * carries, touched or not.
 */
import { CONTRACTS } from '../sql/analyze/contract';
import { parametersWritten } from '../sql/parameters-written';
import { readBinding, rolePrefix, valueWords } from '../sim/param-bindings';
import { WRITE_ROLES, type YourSqlRole, type YourSqlTexts } from './your-sql';

/** The values the row shows for each $n of a role's statement. */
export interface BindingRow {
  positions: number[];
  valueAt: (position: number) => string;
}

/**
 * A statement's own parameters (check's --param) get a row only when it uses a $n past the ones the lab gives
 * its role (pgmq's LIMIT $1 batch size puts the worker in $2 and the lease in $3), or once some are bound;
 * null when it shows none.
 */
export function bindingRow(role: YourSqlRole, text: string, params: readonly string[]): BindingRow | null {
  const bound = new Map(
    params.flatMap((flag) => {
      const { roleWord, parts } = readBinding(flag);
      return parts && roleWord === role ? [[parts.position, parts.value] as const] : [];
    }),
  );
  const written = Math.max(0, ...parametersWritten(text));
  if (bound.size === 0 && written <= CONTRACTS[role].parameters.length) return null;
  const words = valueWords(role);
  return {
    positions: Array.from({ length: Math.max(written, ...bound.keys()) }, (_, i) => i + 1),
    // Until one is bound, each $n the lab gives the role offers what the lab gives it.
    valueAt: (n) => (bound.size === 0 ? (words[n - 1] ?? '') : (bound.get(n) ?? '')),
  };
}

/** The bindings a row's boxes make, `typed` in place of what the box at its position shows; an empty box binds nothing. */
export function rowBindings(role: YourSqlRole, row: BindingRow, typed?: { position: number; value: string }): string[] {
  return (
    row.positions
      // Kept as typed (a space inside 'text' is part of it).
      .map((n) => [n, n === typed?.position ? typed.value : row.valueAt(n)] as const)
      .filter(([, value]) => value.trim() !== '')
      .map(([n, value]) => `${rolePrefix(role)}${n}=${value}`)
  );
}

/**
 * The statements with their rows' bindings as the boxes show them: a row nobody touched binds the values it
 * offers. The same texts when no row is untouched.
 */
export function withShownBindings(texts: YourSqlTexts): YourSqlTexts {
  const params = texts.params ?? [];
  const offered = (['claim', ...WRITE_ROLES, 'reaper'] as const).flatMap((role) => {
    const text = texts[role] ?? null;
    if (text === null || params.some((flag) => readBinding(flag).roleWord === role)) return [];
    const row = bindingRow(role, text, params);
    return row ? rowBindings(role, row) : [];
  });
  return offered.length === 0 ? texts : { ...texts, params: [...params, ...offered] };
}
