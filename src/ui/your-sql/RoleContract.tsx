import { CONTRACTS } from '../../sql/analyze/contract';
import { gsetVariableOf, TWO_STATEMENT_NAMES, type YourSqlRole } from '../../store/your-sql';

/**
 * What the lab passes a role's statement and what the worker reads back from it. `ownParameters`: the
 * statement's values are bound in the Parameters row under it, so that row, not the lab's list, says them.
 * `text`: the statement as typed; a claim written psql's way (SELECT … \gset, then the UPDATE) also lists
 * the variable its UPDATE uses, which nobody types a value for: the SELECT's answer sets it.
 */
export function RoleContract({ of: role, ownParameters = false, text = '' }: { of: YourSqlRole; ownParameters?: boolean; text?: string }) {
  const contract = CONTRACTS[role];
  const gset = role === 'claim' && !ownParameters ? gsetVariableOf(text, contract.parameters.length) : null;
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
        {gset ? (
          <span className="your-sql-param your-sql-gset-param">
            <code>:{gset.variable}</code> (<code>${gset.parameter}</code> of your {TWO_STATEMENT_NAMES.update}) the run_id your{' '}
            <span className="your-sql-name">{TWO_STATEMENT_NAMES.select}</span> found <span className="your-sql-type">(integer; set by it, not by you)</span>
          </span>
        ) : null}
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
