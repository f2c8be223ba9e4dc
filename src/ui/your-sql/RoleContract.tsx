import { CONTRACTS } from '../../sql/analyze/contract';
import type { YourSqlRole } from '../../store/your-sql';

/** What the lab passes a role's statement and what the worker reads back from it. */
export function RoleContract({ of: role }: { of: YourSqlRole }) {
  const contract = CONTRACTS[role];
  return (
    <dl className="your-sql-contract">
      <dt>Parameters</dt>
      <dd>
        {contract.parameters.map((p) => (
          <span key={p.number} className="your-sql-param">
            <code>${p.number}</code> {p.name} <span className="your-sql-type">({p.type})</span>
          </span>
        ))}
      </dd>
      <dt>RETURNING</dt>
      <dd>
        {contract.returning.map((column) => (
          <code key={column}>{column}</code>
        ))}
      </dd>
    </dl>
  );
}
