import { memo, useMemo } from 'react';
import type { RunRow } from '../sim/types';
import { changedCells, formatCell } from '../store/derive';
import { useShownStep } from './hooks';
import { sameFields } from './same';
import { ScrollBox } from './ScrollBox';

const COLUMNS: (keyof RunRow)[] = [
  'run_id',
  'status',
  'lease_owner',
  'lease_generation',
  'lease_expires_at',
  'heartbeat_at',
  'cancel_requested',
  'progress',
  'cost_cents',
  'result',
];

/** The same element every time, so React never looks at the header again. */
const HEADER = (
  <thead>
    <tr>
      {COLUMNS.map((c) => (
        <th key={c} scope="col">
          {c}
        </th>
      ))}
    </tr>
  </thead>
);

/** One run's row; `changed`: the columns this step changed, comma-separated. Redrawn only when either differs. */
const Row = memo(
  function Row({ row, changed }: { row: RunRow; changed: string }) {
    const hits = new Set(changed.split(','));
    return (
      <tr>
        {COLUMNS.map((c) => {
          const hit = hits.has(c);
          return (
            <td key={c} className={hit ? 'changed' : undefined}>
              {formatCell(row[c])}
              {hit ? <span className="visually-hidden"> (changed)</span> : null}
            </td>
          );
        })}
      </tr>
    );
  },
  (a, b) => a.changed === b.changed && sameFields(a.row, b.row),
);

/** The committed `runs` table after the selected step; cells that step changed are marked. */
export function RunsTable() {
  const { step, before, after } = useShownStep();
  const changed = useMemo(() => (step ? changedCells(before.runs, after.runs) : new Set<string>()), [step, before, after]);
  return (
    <section className="runs" aria-label="runs table">
      <h2>
        <code>runs</code> {step ? `after step ${step.index + 1}` : 'as seeded'}
        {changed.size > 0 ? <span className="legend">highlighted: changed by this step</span> : null}
      </h2>
      <ScrollBox label="runs table rows">
        <table className="grid">
          {HEADER}
          <tbody>
            {after.runs.map((row) => (
              <Row key={row.run_id} row={row} changed={COLUMNS.filter((c) => changed.has(`${row.run_id}:${c}`)).join(',')} />
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}
