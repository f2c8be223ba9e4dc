import { clockLabel } from '../sim/clock';
import type { LockEvidenceRow } from '../sim/types';
import { describeLock, describeResult, formatCell, formatParams } from '../store/derive';
import { useShownStep } from './hooks';
import { ScrollBox } from './ScrollBox';

function ResultBlock({ outcome, sql }: { outcome: Parameters<typeof describeResult>[0]; sql: string | null }) {
  const result = describeResult(outcome, sql);
  if (result.kind !== 'rows') return <p className={`result result-${result.kind}`}>{result.summary}</p>;
  return (
    <div className="result result-rows">
      <p>{result.summary}</p>
      {result.rows.length > 0 ? (
        <ScrollBox label="Result rows">
          <table className="grid small">
            <thead>
              <tr>
                {result.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                <tr key={i}>
                  {row.map((value, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                    <td key={j}>{formatCell(value)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
    </div>
  );
}

/** What a pg_locks row locks, in the server's terms: a transaction id, or a row's place in a table. */
function lockedObject(row: LockEvidenceRow): string {
  if (row.locktype === 'transactionid') return `transactionid ${row.transactionid}`;
  if (row.locktype === 'tuple') return `tuple (${row.page},${row.tuple}) of ${row.relation}`;
  return `${row.locktype} ${row.relation ?? ''}`.trim();
}

/** Live mode: the real server's pg_locks rows behind a wait, taken the moment the lab saw it. */
function LockEvidence({ rows }: { rows: LockEvidenceRow[] }) {
  return (
    <section className="lock-evidence" aria-label="pg_locks evidence">
      <h3>The wait, in pg_locks</h3>
      <p>
        The server lists the waiting backend's lock with <code>granted = false</code>, next to the backend that holds it:
      </p>
      <ScrollBox label="pg_locks rows">
        <table className="grid small">
          <thead>
            <tr>
              {['session', 'pid', 'lock', 'mode', 'granted'].map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.pid}-${row.locktype}-${row.mode}-${row.granted}`} className={row.granted ? undefined : 'waiting'}>
                <td>{row.session}</td>
                <td>{row.pid}</td>
                <td>{lockedObject(row)}</td>
                <td>{row.mode}</td>
                <td>{row.granted ? 'true' : 'false'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}

/** The selected step explained: its SQL and parameters, what Postgres answered, how PGlite did it, the locks after it. */
export function StepDetails() {
  const { index, step, after, total, count } = useShownStep();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: on a wide window this column scrolls by itself; the keyboard must reach it
    <aside className="details" aria-label="Selected step" tabIndex={0}>
      {step === null || index === null ? (
        <>
          <h2>Before the first step</h2>
          <p className="muted">
            The runs table is freshly seeded and every worker is ready.{' '}
            {total > 0 ? 'Step forward to see the first statement.' : 'Press Next step to play the script, or step a worker yourself.'}
          </p>
        </>
      ) : (
        <>
          <h2>
            Step {index + 1} <span className="muted">{count}</span>
            <span className="step-meta">
              {clockLabel(step.clockSeconds)} ·{' '}
              {step.actor === 'clock' || step.actor === 'operator' || step.actor === 'rescuer' ? step.actor : `worker ${step.actor}`} · {step.action}
            </span>
          </h2>
          <p className="step-note">{step.note}</p>
          {step.sql !== null ? (
            <section aria-label="SQL">
              <h3>SQL{step.resumed ? ' (run again after the wait)' : ''}</h3>
              <pre className="sql">
                <code>{step.sql.trim()}</code>
              </pre>
              {step.params.length > 0 ? (
                <ul className="params" aria-label="Parameters">
                  {formatParams(step.params).map((p) => (
                    <li key={p}>
                      <code>{p}</code>
                    </li>
                  ))}
                </ul>
              ) : null}
              <h3>Result</h3>
              <ResultBlock outcome={step.outcome} sql={step.sql} />
            </section>
          ) : null}
          {step.outcome?.status === 'blocked' && step.outcome.lockEvidence?.length ? <LockEvidence rows={step.outcome.lockEvidence} /> : null}
          {step.engineNote ? (
            <section className="engine-note" aria-label="How PGlite did this">
              <h3>How PGlite did this</h3>
              <p>{step.engineNote}</p>
            </section>
          ) : null}
        </>
      )}
      <section aria-label="Locks held">
        <h3>Locks held {step ? 'after this step' : ''}</h3>
        {after.locks.length === 0 ? (
          <p className="muted">No open transaction holds a row lock.</p>
        ) : (
          <ul className="locks">
            {after.locks.map((lock) => (
              <li key={lock.session}>{describeLock(lock)}</li>
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
