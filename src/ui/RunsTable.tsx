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

/** With the tenant beside the run's id: where the runs belong to more than one tenant, the tenant is the point. */
const COLUMNS_WITH_TENANT: (keyof RunRow)[] = ['run_id', 'tenant', ...COLUMNS.slice(1)];

function header(columns: readonly (keyof RunRow)[]) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The same elements every time, so React never looks at a header again. */
const HEADER = header(COLUMNS);
const HEADER_WITH_TENANT = header(COLUMNS_WITH_TENANT);

/** One run's row; `changed`: the columns this step changed, comma-separated. Redrawn only when either differs. */
const Row = memo(
  function Row({ row, changed, withTenant }: { row: RunRow; changed: string; withTenant: boolean }) {
    const hits = new Set(changed.split(','));
    return (
      <tr>
        {(withTenant ? COLUMNS_WITH_TENANT : COLUMNS).map((c) => {
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
  (a, b) => a.changed === b.changed && a.withTenant === b.withTenant && sameFields(a.row, b.row),
);

/** The committed `runs` table after the selected step; cells that step changed are marked. */
export function RunsTable() {
  const { step, before, after } = useShownStep();
  const changed = useMemo(() => (step ? changedCells(before.runs, after.runs) : new Set<string>()), [step, before, after]);
  const withTenant = new Set(after.runs.map((row) => row.tenant)).size > 1;
  const columns = withTenant ? COLUMNS_WITH_TENANT : COLUMNS;
  return (
    <section className="runs" aria-label="runs table">
      <h2>
        <code>runs</code> {step ? `after step ${step.index + 1}` : 'as seeded'}
        {changed.size > 0 ? <span className="legend">highlighted: changed by this step</span> : null}
      </h2>
      <ScrollBox label="runs table rows">
        <table className="grid">
          {withTenant ? HEADER_WITH_TENANT : HEADER}
          <tbody>
            {after.runs.map((row) => (
              <Row key={row.run_id} row={row} withTenant={withTenant} changed={columns.filter((c) => changed.has(`${row.run_id}:${c}`)).join(',')} />
            ))}
          </tbody>
        </table>
      </ScrollBox>
    </section>
  );
}
