import { useLab } from '../../store/react';
import { ROLE_NAMES } from '../../store/your-sql';
import { labWriteText } from '../../store/your-sql-slice';
import type { WriteRole } from '../../strategies/custom';
import { RoleEditor } from './RoleEditor';

/** An optional write: the lab's own file until the learner chooses to write their own. */
export function WriteEditor({ role }: { role: WriteRole }) {
  const text = useLab((s) => s.yourSql.draft?.[role] ?? null);
  const settings = useLab((s) => s.settings);
  const edit = useLab((s) => s.editYourSql);
  return (
    <div className="your-sql-write">
      <label className="your-sql-own">
        <input type="checkbox" checked={text !== null} onChange={(e) => edit(role, e.target.checked ? labWriteText(settings, role) : null)} />
        Write my own {ROLE_NAMES[role]}
        {text === null ? <span className="your-sql-type"> (now: the lab's)</span> : null}
      </label>
      {text !== null ? <RoleEditor of={role} text={text} onChange={(next) => edit(role, next)} /> : null}
    </div>
  );
}
