import { sqlText } from '../../sql/registry';

const STATEMENTS = [
  { title: 'Every claim first takes the claim lock (same transaction)', id: 'backpressure-claim-lock' },
  { title: 'FIFO claim', id: 'claim-fifo-tenant' },
  { title: 'Fair claim', id: 'claim-fair-tenant' },
  { title: 'Starting a model call (after the call lock)', id: 'backpressure-call-start' },
  { title: 'A model call answers', id: 'backpressure-call-finish' },
] as const;

/** The statements the workers run, exactly as they run them: the limits are in here, not in JavaScript. */
export function SqlPanel() {
  return (
    <section className="bp-sql" aria-label="The SQL the workers run">
      <h2>The SQL the workers run</h2>
      <p className="summary">
        $1 is the worker, $2 the max active runs, $3 the max per tenant; for a call, $3 is the cap on calls in flight and $4 the max cost per run. "No limit" is
        passed as 2147483647.
      </p>
      {STATEMENTS.map((statement) => (
        <details key={statement.id} open={statement.id.startsWith('claim-')}>
          <summary>
            {statement.title} <code>{statement.id}.sql</code>
          </summary>
          <pre className="bp-code">
            <code>{sqlText(statement.id)};</code>
          </pre>
        </details>
      ))}
    </section>
  );
}
