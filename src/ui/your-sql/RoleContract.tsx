import { CONTRACTS } from '../../sql/analyze/contract';
import type { YourSqlRole } from '../../store/your-sql';

/**
 * What the lab passes a role's statement and what the worker reads back from it. `ownParameters`: the
 * statement's values are bound in the Parameters row under it, so that row, not the lab's list, says them.
 */
export function RoleContract({ of: role, ownParameters = false }: { of: YourSqlRole; ownParameters?: boolean }) {
  const contract = CONTRACTS[role];
  return (
    <dl className="your-sql-contract">
      <dt>Parameters</dt>
      <dd>
        {ownParameters ? (
          <span className="your-sql-type">your own, given below</span>
        ) : contract.parameters.length === 0 ? (
          // A reaper's: an empty list under its heading read as something missing.
          <span className="your-sql-type">none: it uses no $n</span>
        ) : (
          contract.parameters.map((p) => (
            <span key={p.number} className="your-sql-param">
              <code>${p.number}</code> {p.name} <span className="your-sql-type">({p.type})</span>
            </span>
          ))
        )}
      </dd>
      {/* A reaper's rows are read by nobody: it has no RETURNING to show. */}
      {contract.returning.length > 0 ? (
        <>
          <dt>RETURNING</dt>
          <dd>
            {contract.returning.map((column) => (
              <code key={column}>{column}</code>
            ))}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
