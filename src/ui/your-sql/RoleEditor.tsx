import { ROLE_NAMES, type YourSqlRole } from '../../store/your-sql';
import { useLab } from '../../store/react';
import { bindingRow } from '../../store/your-sql-params';
import { ParamsRow } from './ParamsRow';
import { RoleContract } from './RoleContract';

const NO_PARAMS: readonly string[] = [];

/** One role's statement: the text and, beside it, what the lab gives it and reads back. */
export function RoleEditor({ of: role, text, onChange }: { of: YourSqlRole; text: string; onChange: (text: string) => void }) {
  const id = `your-sql-${role}`;
  const params = useLab((s) => s.yourSql.draft?.params) ?? NO_PARAMS;
  const row = bindingRow(role, text, params);
  return (
    <div className="your-sql-role">
      <label htmlFor={id} className="your-sql-label">
        Your {ROLE_NAMES[role]}
      </label>
      <div className="your-sql-pair">
        <textarea
          id={id}
          className="your-sql-text"
          value={text}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          rows={Math.min(14, Math.max(4, text.split('\n').length + 1))}
          onChange={(e) => onChange(e.target.value)}
        />
        <RoleContract of={role} ownParameters={row !== null} text={text} />
      </div>
      {row ? <ParamsRow of={role} row={row} /> : null}
    </div>
  );
}
