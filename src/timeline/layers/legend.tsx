/**
 * The legend: every symbol the timeline draws, always, in rows under the step numbers. It holds still while
 * a scenario unfolds (the app records the trace step by step) and names what a learner will meet before
 * they meet it.
 */
import { memo } from 'react';
import type { AnomalyKind, Verdict } from '../../sim/types';
import { VERDICT_NAMES } from '../describe';
import { FONT, textWidth } from '../text-width';
import { px, symbolPath } from '../theme';
import { ExpiryHead } from './leases';
import { VERDICT_SHAPES } from './marks';

type LegendKey =
  | `verdict-${Verdict}`
  | 'lease'
  | 'lease-stale'
  | 'lease-orphan'
  | 'expiry'
  | 'renewal'
  | 'hung'
  | 'pause'
  | 'crash'
  | 'clock-break'
  | 'anomaly';

interface TimelineLegendItem {
  key: LegendKey;
  label: string;
  x: number;
  y: number;
}

const LEGEND_ITEMS: { key: LegendKey; label: string }[] = [
  { key: 'verdict-ok', label: 'ok' },
  { key: 'verdict-empty', label: VERDICT_NAMES.empty },
  { key: 'verdict-rejected', label: 'rejected: 0 rows (fence or check)' },
  { key: 'verdict-error', label: 'error (SQLSTATE)' },
  { key: 'verdict-blocked', label: 'waits for a row lock' },
  { key: 'verdict-event', label: 'event' },
  { key: 'lease', label: 'lease: run · generation' },
  { key: 'lease-stale', label: 'stale lease, still believed' },
  { key: 'lease-orphan', label: 'orphaned lease (worker gone)' },
  { key: 'expiry', label: 'lease expiry' },
  { key: 'renewal', label: 'heartbeat moved the lease on' },
  { key: 'hung', label: 'model call hung' },
  { key: 'pause', label: 'paused' },
  { key: 'crash', label: 'crash' },
  { key: 'clock-break', label: 'clock moves' },
  { key: 'anomaly', label: 'anomaly' },
];
const SWATCH_WIDTH = 22;
const ROW_HEIGHT = 20;
const PAD = 8;

function itemWidth(label: string): number {
  return SWATCH_WIDTH + 5 + textWidth(label, FONT.legend) + 16;
}

/** The legend's items, wrapped to the width, from `top` down; and its height. */
export function layoutLegend(width: number, top: number): { items: TimelineLegendItem[]; height: number } {
  const items: TimelineLegendItem[] = [];
  let x = 8;
  let row = 0;
  for (const item of LEGEND_ITEMS) {
    const w = itemWidth(item.label);
    if (x + w > width - 8 && x > 8) {
      row += 1;
      x = 8;
    }
    items.push({ ...item, x, y: top + PAD + row * ROW_HEIGHT + ROW_HEIGHT / 2 });
    x += w;
  }
  return { items, height: PAD + (row + 1) * ROW_HEIGHT + 4 };
}

export const TimelineLegend = memo(function TimelineLegend({ legend, uid }: { legend: readonly TimelineLegendItem[]; uid: string }) {
  return (
    <g>
      {legend.map((item) => (
        <g key={item.key} transform={`translate(${px(item.x)},${px(item.y)})`}>
          <LegendSwatch swatch={item.key} uid={uid} />
          <text className="tl-legend-text" x={27} y={4}>
            {item.label}
          </text>
        </g>
      ))}
    </g>
  );
});

const LEGEND_ANOMALY: AnomalyKind = 'duplicate-execution';

function LegendSwatch({ swatch, uid }: { swatch: LegendKey; uid: string }) {
  const cx = 11;
  if (swatch.startsWith('verdict-')) {
    const verdict = swatch.slice('verdict-'.length) as Verdict;
    return <path className={`tl-mark tl-v-${verdict}`} d={symbolPath(VERDICT_SHAPES[verdict], 6)} transform={`translate(${cx},0)`} />;
  }
  switch (swatch) {
    case 'lease':
      return (
        <g>
          <rect className="tl-lease" x={0} y={-6} width={22} height={12} />
          <rect className="tl-lease-edge" x={0} y={-6} width={22} height={12} />
        </g>
      );
    case 'lease-stale':
      return <rect className="tl-lease-hatched" style={{ fill: `url(#${uid}-hatch)` }} x={0} y={-6} width={22} height={12} />;
    case 'lease-orphan':
      return <rect className="tl-lease-orphan" x={0} y={-6} width={22} height={12} />;
    case 'expiry':
      return (
        <g>
          <line className="tl-expiry" x1={cx} x2={cx} y1={-3} y2={8} />
          <ExpiryHead x={cx} y={-8} />
        </g>
      );
    case 'renewal':
      return (
        <g>
          <rect className="tl-lease" x={0} y={-6} width={22} height={10} />
          <line className="tl-renewed-from" x1={10} x2={10} y1={-5} y2={3} />
          <path className="tl-renewal-mark" d="M0.5,8L4,4L7.5,8Z" />
        </g>
      );
    case 'hung':
      return <rect className="tl-hung" x={0} y={-3} width={22} height={6} rx={3} />;
    case 'pause':
      return <rect className="tl-pause" x={0} y={-6} width={22} height={12} rx={6} />;
    case 'crash':
      return <path className="tl-mark tl-shape-cross" d={symbolPath('cross', 6)} transform={`translate(${cx},0)`} />;
    case 'clock-break':
      return <line className="tl-break" x1={cx} x2={cx} y1={-8} y2={8} />;
    case 'anomaly':
      return (
        <g>
          <line className={`tl-a-${LEGEND_ANOMALY} tl-bracket`} x1={2} x2={20} y1={2} y2={2} />
          <circle className={`tl-a-${LEGEND_ANOMALY} tl-stop`} cx={2.5} cy={2} r={3} />
          <circle className={`tl-a-${LEGEND_ANOMALY} tl-stop`} cx={19.5} cy={2} r={3} />
        </g>
      );
    default:
      return null;
  }
}
