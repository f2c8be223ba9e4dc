import { clockLabel } from '../../sim/clock';
import type { ConsoleOutcome, ConsoleValue } from '../../store/types';
import { ScrollBox } from '../ScrollBox';

/** A console answer, with what the learner ran and where. */
export interface ConsoleRun {
  sql: string;
  outcome: ConsoleOutcome;
}

const READ_ONLY_NOTE =
  'The console runs every statement in BEGIN READ ONLY … ROLLBACK, so Postgres refuses writes and row locks (FOR UPDATE, FOR SHARE): they would change what the workers see, or wait for a parked worker’s lock, and inside PGlite a lock wait never returns.';

/** Postgres's names for the error codes a learner is likely to meet (Appendix A of its manual). */
const CONDITION_NAMES: Record<string, string> = {
  '08P01': 'protocol_violation',
  '0A000': 'feature_not_supported',
  '22003': 'numeric_value_out_of_range',
  '22007': 'invalid_datetime_format',
  '22012': 'division_by_zero',
  '22P02': 'invalid_text_representation',
  '25001': 'active_sql_transaction',
  '25006': 'read_only_sql_transaction',
  '2BP01': 'dependent_objects_still_exist',
  '42501': 'insufficient_privilege',
  '42601': 'syntax_error',
  '42702': 'ambiguous_column',
  '42703': 'undefined_column',
  '42704': 'undefined_object',
  '42803': 'grouping_error',
  '42804': 'datatype_mismatch',
  '42883': 'undefined_function',
  '42P01': 'undefined_table',
  '42P10': 'invalid_column_reference',
  '54001': 'statement_too_complex',
  '55P03': 'lock_not_available',
};

/** "line 2, column 7" for a 1-based character position in the text. */
function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position - 1);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n') - 1;
  return `line ${line}, column ${column}`;
}

function Cell({ value }: { value: ConsoleValue }) {
  if (value === null) return <td className="console-null">NULL</td>;
  if (typeof value === 'number') return <td className="console-number">{value}</td>;
  if (typeof value === 'boolean') return <td>{value ? 'true' : 'false'}</td>;
  return <td className={value.includes('\n') ? 'console-multiline' : undefined}>{value}</td>;
}

/** Where the statement ran, in the learner's terms: after how many trace steps, at which clock. */
export function placeLabel(stepCount: number, clockSeconds: number): string {
  return `${stepCount === 0 ? 'before the first step' : `after step ${stepCount}`}, clock ${clockLabel(clockSeconds)}`;
}

export function ConsoleResultView({ run, stepsAt }: { run: ConsoleRun; stepsAt: (tokens: number) => number }) {
  const { outcome, sql } = run;
  switch (outcome.kind) {
    case 'refused':
      return (
        <div className="console-message console-refused">
          <p>
            <strong>Not sent to Postgres.</strong> {outcome.reason}
          </p>
        </div>
      );
    case 'stopped':
      return (
        <div className="console-message console-stopped">
          <p>
            <strong>Stopped.</strong> {outcome.reason}
          </p>
        </div>
      );
    case 'failed':
      return (
        <div className="console-message console-failed">
          <p>
            <strong>The console could not run this.</strong> {outcome.reason}
          </p>
        </div>
      );
    case 'error':
      return (
        <div className="console-message console-error">
          <p className="console-error-line">ERROR: {outcome.message}</p>
          <p className="console-sqlstate">
            SQLSTATE <code>{outcome.code}</code>
            {CONDITION_NAMES[outcome.code] ? ` (${CONDITION_NAMES[outcome.code]})` : ''}
          </p>
          {outcome.detail ? <p>DETAIL: {outcome.detail}</p> : null}
          {outcome.hint ? <p>HINT: {outcome.hint}</p> : null}
          {outcome.position !== null ? <p>At {lineAndColumn(sql, outcome.position)} of your statement.</p> : null}
          {outcome.code === '25006' ? <p className="console-why">{READ_ONLY_NOTE}</p> : null}
          <p className="muted console-meta">
            {placeLabel(stepsAt(outcome.at.tokens), outcome.at.clockSeconds)} · {outcome.ms.toFixed(1)} ms
          </p>
        </div>
      );
    case 'rows': {
      const shown = outcome.rows.length;
      const count = `${outcome.rowCount} row${outcome.rowCount === 1 ? '' : 's'}`;
      return (
        <div className="console-rows">
          <p className="console-meta">
            <strong>{shown < outcome.rowCount ? `${count}, the first ${shown} shown` : count}</strong>
            <span className="muted">
              {' '}
              · {outcome.ms.toFixed(1)} ms · {placeLabel(stepsAt(outcome.at.tokens), outcome.at.clockSeconds)}
            </span>
          </p>
          {outcome.columns.length > 0 ? (
            <ScrollBox label="Console result rows">
              <table className="grid small console-table">
                <thead>
                  <tr>
                    {outcome.columns.map((column, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: column names may repeat (SELECT 1 AS a, 2 AS a)
                      <th key={i} scope="col">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {outcome.rows.map((row, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: result rows have no identity of their own
                    <tr key={i}>
                      {row.map((value, j) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                        <Cell key={j} value={value} />
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
  }
}
