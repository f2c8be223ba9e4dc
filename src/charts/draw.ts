/**
 * Drawing a time series chart on a canvas: D3 scales and ticks, plain 2D context for the marks. Only the
 * seconds in view are visited, and where there are more seconds than pixels each pixel column draws the
 * highest value of the seconds it covers, so 10,000 seconds cost about as much as 1,000.
 */
import { scaleLinear } from 'd3';

export interface Series<T> {
  label: string;
  color: string;
  value: (point: T) => number;
}

export interface ChartColors {
  ink: string;
  muted: string;
  grid: string;
  bg: string;
  cap: string;
  cursor: string;
}

export interface ChartSpec<T> {
  points: readonly T[];
  series: readonly Series<T>[];
  /** Stacked areas (parts of a whole) or lines (compared with each other and with the caps). */
  stacked: boolean;
  caps: readonly { value: number; label: string }[];
  yMax: number;
  /** Only points up to this index are drawn (the cursor). */
  upTo: number;
  formatY: (value: number) => string;
  /** The values are counts: no fractional ticks. */
  integer?: boolean;
}

export const MARGIN = { left: 40, right: 10, top: 8, bottom: 18 };

export function plotWidth(width: number): number {
  return Math.max(10, width - MARGIN.left - MARGIN.right);
}

/** x scale: seconds to pixels for the visible domain. */
export function xScale(domain: readonly [number, number], width: number) {
  return scaleLinear().domain(domain).range([MARGIN.left, MARGIN.left + plotWidth(width)]);
}

export function formatSeconds(seconds: number): string {
  if (seconds < 600) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
}

export function drawChart<T>(ctx: CanvasRenderingContext2D, width: number, height: number, domain: readonly [number, number], spec: ChartSpec<T>, colors: ChartColors): void {
  const x = xScale(domain, width);
  const bottom = height - MARGIN.bottom;
  // Headroom above the highest value or cap, so a cap's line and label never sit on the top edge.
  const top = Math.max(1, spec.yMax, ...spec.caps.map((cap) => cap.value)) * (spec.caps.length > 0 ? 1.15 : 1);
  const y = scaleLinear().domain([0, top]).range([bottom, MARGIN.top]).nice(3);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '10px system-ui, sans-serif';
  // Grid and y axis.
  ctx.lineWidth = 1;
  ctx.strokeStyle = colors.grid;
  ctx.fillStyle = colors.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  // Counts have no half runs: integer ticks only, unless the chart says otherwise.
  for (const value of y.ticks(3).filter((v) => !spec.integer || Number.isInteger(v))) {
    const py = Math.round(y(value)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(MARGIN.left, py);
    ctx.lineTo(width - MARGIN.right, py);
    ctx.stroke();
    ctx.fillText(spec.formatY(value), MARGIN.left - 4, py);
  }
  // x axis.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const second of x.ticks(Math.max(2, Math.floor(plotWidth(width) / 90)))) {
    ctx.fillText(formatSeconds(second), x(second), bottom + 4);
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(MARGIN.left, 0, plotWidth(width), height);
  ctx.clip();
  const first = Math.max(0, Math.floor(domain[0]) - 1);
  const last = Math.min(spec.upTo, spec.points.length - 1, Math.ceil(domain[1]) + 1);
  if (last >= first) {
    if (spec.stacked) drawStacked(ctx, spec, x, y, first, last);
    else drawLines(ctx, spec, x, y, first, last);
  }
  // Caps: dashed, labelled at the right end.
  ctx.setLineDash([5, 4]);
  ctx.strokeStyle = colors.cap;
  ctx.fillStyle = colors.cap;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.lineWidth = 1.5;
  for (const cap of spec.caps) {
    const py = Math.round(y(cap.value)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(MARGIN.left, py);
    ctx.lineTo(width - MARGIN.right, py);
    ctx.stroke();
    ctx.fillText(cap.label, width - MARGIN.right - 2, py - 2);
  }
  ctx.setLineDash([]);
  // The cursor: the second being shown.
  if (spec.upTo >= domain[0] && spec.upTo <= domain[1]) {
    const px = Math.round(x(spec.upTo)) + 0.5;
    ctx.strokeStyle = colors.cursor;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(px, MARGIN.top);
    ctx.lineTo(px, bottom);
    ctx.stroke();
  }
  ctx.restore();
}

type Scale = (value: number) => number;

/** The indexes to visit: every one, or one per pixel column (with `bucket` seconds each) when dense. */
function bucketSize(x: { invert(px: number): number }): number {
  const secondsPerPixel = x.invert(MARGIN.left + 1) - x.invert(MARGIN.left);
  return Math.max(1, Math.floor(secondsPerPixel));
}

function drawLines<T>(ctx: CanvasRenderingContext2D, spec: ChartSpec<T>, x: Scale & { invert(px: number): number }, y: Scale, first: number, last: number): void {
  const bucket = bucketSize(x);
  ctx.lineWidth = 2;
  ctx.lineJoin = 'round';
  for (const series of spec.series) {
    ctx.strokeStyle = series.color;
    ctx.beginPath();
    let started = false;
    let previousY = 0;
    for (let i = first; i <= last; i += bucket) {
      let high = series.value(spec.points[i]!);
      let low = high;
      for (let j = i + 1; j < Math.min(i + bucket, last + 1); j++) {
        const v = series.value(spec.points[j]!);
        if (v > high) high = v;
        if (v < low) low = v;
      }
      // Steps, not slopes: a count holds its value for the whole second.
      const px = x(i);
      if (!started) {
        ctx.moveTo(px, y(high));
        started = true;
      } else {
        ctx.lineTo(px, previousY);
        ctx.lineTo(px, y(high));
      }
      if (low !== high) ctx.lineTo(px, y(low));
      previousY = y(low !== high ? low : high);
    }
    if (started) ctx.lineTo(x(Math.min(last + bucket, spec.upTo)), previousY);
    ctx.stroke();
  }
}

function drawStacked<T>(ctx: CanvasRenderingContext2D, spec: ChartSpec<T>, x: Scale & { invert(px: number): number }, y: Scale, first: number, last: number): void {
  const bucket = bucketSize(x);
  const indexes: number[] = [];
  for (let i = first; i <= last; i += bucket) indexes.push(i);
  if (indexes.at(-1) !== last) indexes.push(last);
  const base = new Float64Array(indexes.length);
  for (const series of spec.series) {
    const top = new Float64Array(indexes.length);
    indexes.forEach((i, k) => {
      let high = 0;
      for (let j = i; j < Math.min(i + bucket, last + 1); j++) high = Math.max(high, series.value(spec.points[j]!));
      top[k] = base[k]! + high;
    });
    ctx.fillStyle = series.color;
    ctx.beginPath();
    for (const [k, i] of indexes.entries()) {
      if (k === 0) ctx.moveTo(x(i), y(top[k]!));
      else ctx.lineTo(x(i), y(top[k]!));
    }
    for (let k = indexes.length - 1; k >= 0; k--) ctx.lineTo(x(indexes[k]!), y(base[k]!));
    ctx.closePath();
    ctx.fill();
    base.set(top);
  }
}
