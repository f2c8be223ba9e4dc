/**
 * The lanes' stop in words, always shown (a phone has no hover): the step's SQL as it ran, whether it waited
 * and which step's end released it, the rows or the error it gave back, the steps its own end released, and
 * at the end the checks, a refusal or why the order cannot happen. The tables between steps are not shown:
 * the runner keeps no copy of them.
 */
import type { SpecPermutationResult, StepReply, StepTrace } from '../../store/spec-slice';

function Replies({ replies }: { replies: readonly StepReply[] }) {
  if (replies.length === 0) return <p>It returned no rows (a statement without RETURNING, or the end of a transaction).</p>;
  return (
    <>
      {replies.map((reply, index) =>
        reply.kind === 'error' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the replies of one step never reorder
          <p key={index} className="spec-lane-error">
            {reply.severity}: {reply.message}
          </p>
        ) : reply.result.rows.length === 0 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the replies of one step never reorder
          <p key={index}>No rows.</p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the replies of one step never reorder
          <table key={index} className="spec-lane-rows">
            <thead>
              <tr>
                {reply.result.columns.map((column, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a name
                  <th key={c} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {reply.result.rows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows as the server sent them
                <tr key={r}>
                  {row.map((value, c) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells of a row
                    <td key={c}>{value ?? 'NULL'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ),
      )}
    </>
  );
}

const stepNumber = (trace: StepTrace) => trace.sentAt + 1;

/** A step whose wait ended at this column: what freed it and what it gave back. */
function Released({ trace }: { trace: StepTrace }) {
  return (
    <div className="spec-lane-released">
      <p>
        Its end released <code>{trace.step}</code> (session {trace.session}), which had waited since step {stepNumber(trace)}. It returned:
      </p>
      <Replies replies={trace.replies} />
    </div>
  );
}

function StepStop({ permutation, trace }: { permutation: SpecPermutationResult; trace: StepTrace }) {
  const column = trace.sentAt;
  const returnedHere = trace.returnedAt === column;
  const released = permutation.trace.filter((other) => other !== trace && other.waited && other.returnedAt === column);
  return (
    <>
      <p>
        <strong>
          <code>{trace.step}</code>
        </strong>{' '}
        runs in session {trace.session}:
      </p>
      <pre className="spec-lane-sql">{trace.sql}</pre>
      {returnedHere ? (
        <Replies replies={trace.replies} />
      ) : trace.returnedAt === null ? (
        <p>It waits for a row lock another session holds, and never returns: the order stopped first (see its end).</p>
      ) : (
        <p>
          It waits: another session holds a lock on a row it needs. It goes on when <code>{trace.releasedBy}</code> (step {trace.returnedAt + 1}) ends.
        </p>
      )}
      {released.map((other) => (
        <Released key={other.sentAt} trace={other} />
      ))}
    </>
  );
}

function EndStop({ permutation }: { permutation: SpecPermutationResult }) {
  if (permutation.refused !== null) return <p>PGlite cannot follow this order on from here, so the lab stops instead of guessing: {permutation.refused}.</p>;
  if (permutation.invalid !== null) return <p>This order cannot happen on any server: {permutation.invalid}.</p>;
  return (
    <>
      <p>After the last step the checks run; a check holds when it returns no rows.</p>
      {permutation.checks.map((check) => (
        <div key={check.name} className={check.broken ? 'spec-lane-check is-broken' : 'spec-lane-check'}>
          <p>
            <strong>
              “{check.name}” {check.broken ? 'broke' : 'held'}
            </strong>
            {check.broken ? ':' : ' (no rows).'}
          </p>
          {check.broken ? <Replies replies={check.replies} /> : null}
        </div>
      ))}
    </>
  );
}

export function SpecStopDetails({ permutation, stop }: { permutation: SpecPermutationResult; stop: number }) {
  const trace = stop >= 1 ? permutation.trace[stop - 1] : undefined;
  return (
    <div className="spec-lane-details" aria-live="polite" data-testid="spec-lane-details">
      {stop === 0 ? (
        <p>The start: the spec's setup has made its tables, and no step of this order has run yet. Press Step.</p>
      ) : trace ? (
        <StepStop permutation={permutation} trace={trace} />
      ) : (
        <EndStop permutation={permutation} />
      )}
    </div>
  );
}
