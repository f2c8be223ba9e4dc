/**
 * Waiting time per tenant, as a distribution: for each tenant a box from the 25th to the 75th
 * percentile, the median as a bar, a whisker to the 95th and a dot at the longest wait. SVG: a handful
 * of shapes per tenant, however many runs there are. Both lanes pass the same `maxSeconds`, so their
 * boxes can be compared by eye.
 */
import { scaleLinear } from 'd3';
import { formatSeconds } from './draw';

export interface TenantWaits {
  tenant: string;
  color: string;
  /** Sorted waiting times, in seconds. */
  waits: readonly number[];
  /** Runs of this tenant still waiting at the cursor, and the longest of those waits so far. */
  stillWaiting: number;
  longestOpenWait: number;
}

/** A tenant's row: its box, then its words on a line of their own (beside the box they were cut at the edge). */
const ROW = 40;
const BOX_Y = 11;
const TEXT_Y = 30;
const LEFT = 28;
const RIGHT = 16;

function at(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function WaitBoxes({ rows, maxSeconds, width, label }: { rows: readonly TenantWaits[]; maxSeconds: number; width: number; label: string }) {
  const x = scaleLinear()
    .domain([0, Math.max(10, maxSeconds)])
    .range([LEFT, Math.max(LEFT + 40, width - RIGHT)])
    .nice(4);
  const height = rows.length * ROW + 18;
  return (
    <svg className="bp-waits" width={width} height={height} role="img" aria-label={label}>
      {x.ticks(4).map((t) => (
        <g key={t}>
          <line className="bp-grid-line" x1={x(t)} x2={x(t)} y1={0} y2={height - 16} />
          <text className="bp-axis" x={x(t)} y={height - 4} textAnchor="middle">
            {formatSeconds(t)}
          </text>
        </g>
      ))}
      {rows.map((row, i) => {
        const cy = i * ROW + BOX_Y;
        const { waits } = row;
        const has = waits.length > 0;
        const [q1, median, q3, p95, max] = [at(waits, 0.25), at(waits, 0.5), at(waits, 0.75), at(waits, 0.95), waits.at(-1) ?? 0];
        return (
          <g key={row.tenant} style={{ color: row.color }}>
            <text className="bp-tenant-label" x={4} y={cy} dominantBaseline="middle">
              {row.tenant}
            </text>
            {has ? (
              <>
                <line stroke="currentColor" strokeWidth={1.5} x1={x(q3)} x2={x(p95)} y1={cy} y2={cy} />
                <rect
                  fill="currentColor"
                  fillOpacity={0.25}
                  stroke="currentColor"
                  strokeWidth={1.5}
                  x={x(q1)}
                  y={cy - 7}
                  width={Math.max(2, x(q3) - x(q1))}
                  height={14}
                />
                <line stroke="currentColor" strokeWidth={3} x1={x(median)} x2={x(median)} y1={cy - 8} y2={cy + 8} />
                <circle fill="currentColor" cx={x(max)} cy={cy} r={3.5} />
              </>
            ) : null}
            {row.stillWaiting > 0 ? (
              <line
                className="bp-open-wait"
                stroke="currentColor"
                strokeWidth={2}
                strokeDasharray="3 3"
                x1={x(0)}
                x2={x(row.longestOpenWait)}
                y1={cy + 10}
                y2={cy + 10}
              />
            ) : null}
            <text className="bp-wait-text" x={LEFT} y={i * ROW + TEXT_Y} dominantBaseline="middle">
              {has ? `median ${formatSeconds(median)} · max ${formatSeconds(max)}` : 'not claimed yet'}
              {row.stillWaiting > 0 ? ` · ${row.stillWaiting} waiting` : ''}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
