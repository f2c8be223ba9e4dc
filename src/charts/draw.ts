/**
 * Drawing a time series chart on a canvas: D3 scales and ticks, plain 2D context for the marks. Only the
 * seconds in view are visited, and the marks are drawn per pixel column: each column holds the highest
 * and lowest value of the seconds it covers (and where one second spans many columns, its value in
 * each). The marks are pixel-aligned rectangles, runs of equal columns merged into one: no stroked paths
 * with joins and anti-aliased edges for the canvas to rasterize, which was most of a frame's cost while
 * panning. So a frame costs about the plot's width in pixels, whether it shows 100 seconds or 10,000.
 */
import { scaleLinear } from 'd3';
import { durationLabel } from '../sim/clock';

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
  /** A value's words; on the axis, `step` is the distance between two ticks (so the precision can follow it). */
  formatY: (value: number, step?: number) => string;
  /** The values are whole numbers (counts, cents): no fractional ticks. */
  integer?: boolean;
}

/** The y scale for a chart of this height: from 0 to a little above the highest value or cap. */
function yScale(spec: Pick<ChartSpec<unknown>, 'yMax' | 'caps'>, height: number) {
  // Headroom above the highest value or cap, so a cap's line and label never sit on the top edge.
  const top = Math.max(1, spec.yMax, ...spec.caps.map((cap) => cap.value)) * (spec.caps.length > 0 ? 1.15 : 1);
  return scaleLinear()
    .domain([0, top])
    .range([height - MARGIN.bottom, MARGIN.top])
    .nice(3);
}

/** The y axis's ticks, bottom to top, each with its words (the step between ticks sets their precision). */
export function yAxisTicks(spec: Pick<ChartSpec<unknown>, 'yMax' | 'caps' | 'formatY' | 'integer'>, height: number): { value: number; label: string }[] {
  const values = yScale(spec, height)
    .ticks(3)
    .filter((v) => !spec.integer || Number.isInteger(v));
  const step = values.length > 1 ? values[1]! - values[0]! : 1;
  return values.map((value) => ({ value, label: spec.formatY(value, step) }));
}

export const MARGIN = { left: 40, right: 10, top: 8, bottom: 18 };

export function plotWidth(width: number): number {
  return Math.max(10, width - MARGIN.left - MARGIN.right);
}

/** x scale: seconds to pixels for the visible domain. */
function xScale(domain: readonly [number, number], width: number) {
  return scaleLinear()
    .domain(domain)
    .range([MARGIN.left, MARGIN.left + plotWidth(width)]);
}

/** A second on the charts' time axis: a duration below ten minutes, a minutes:seconds clock after. */
export function formatSeconds(seconds: number): string {
  if (seconds < 600) return durationLabel(seconds);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(Math.round(seconds % 60)).padStart(2, '0')}`;
}

export function drawChart<T>(
  ctx: CanvasRenderingContext2D,
  width: number,
  height: number,
  domain: readonly [number, number],
  spec: ChartSpec<T>,
  colors: ChartColors,
): void {
  const x = xScale(domain, width);
  const bottom = height - MARGIN.bottom;
  const y = yScale(spec, height);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '10px system-ui, sans-serif';
  // Grid and y axis.
  ctx.lineWidth = 1;
  ctx.strokeStyle = colors.grid;
  ctx.fillStyle = colors.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const tick of yAxisTicks(spec, height)) {
    const py = Math.round(y(tick.value)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(MARGIN.left, py);
    ctx.lineTo(width - MARGIN.right, py);
    ctx.stroke();
    ctx.fillText(tick.label, MARGIN.left - 4, py);
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
  if (last >= first) drawMarks(ctx, spec, domain, width, (value) => Math.round(y(value)), first, last);
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

/**
 * Per-column values of one series, reused from frame to frame (a pan redraws every chart each frame):
 * highest, lowest and last value of the seconds in each pixel column, NaN where a column shows none.
 */
let scratch = { high: new Float64Array(0), low: new Float64Array(0), close: new Float64Array(0), base: new Float64Array(0) };

function columnsFor(width: number) {
  if (scratch.high.length < width) {
    const size = Math.ceil(width * 1.5);
    scratch = { high: new Float64Array(size), low: new Float64Array(size), close: new Float64Array(size), base: new Float64Array(size) };
  }
  return scratch;
}

/**
 * Fills `high`, `low` and `close` for columns [0, width) with the series' values at seconds first…last.
 * Second i covers [i, i + 1) on the x axis; the last drawn second (the cursor) ends where it begins.
 */
function collect<T>(spec: ChartSpec<T>, value: (point: T) => number, first: number, last: number, start: number, perSecond: number, width: number): void {
  const { high, low, close } = scratch;
  high.fill(Number.NaN, 0, width);
  for (let i = first; i <= last; i++) {
    const v = value(spec.points[i]!);
    const from = Math.floor((i - start) * perSecond);
    const to = i < spec.upTo ? Math.floor((i + 1 - start) * perSecond) : from;
    const a = Math.max(0, from);
    const b = Math.min(width - 1, Math.max(from, to - 1));
    for (let c = a; c <= b; c++) {
      if (Number.isNaN(high[c]!)) {
        high[c] = v;
        low[c] = v;
      } else {
        if (v > high[c]!) high[c] = v;
        if (v < low[c]!) low[c] = v;
      }
      close[c] = v;
    }
  }
}

/** Fills rectangles, merging each into the previous one when it continues it column by column. */
class RectRuns {
  private x = 0;
  private y = 0;
  private w = 0;
  private h = 0;

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  add(x: number, y: number, w: number, h: number): void {
    if (this.w > 0 && y === this.y && h === this.h && x === this.x + this.w) {
      this.w += w;
      return;
    }
    this.flush();
    this.x = x;
    this.y = y;
    this.w = w;
    this.h = h;
  }

  flush(): void {
    if (this.w > 0 && this.h > 0) this.ctx.fillRect(this.x, this.y, this.w, this.h);
    this.w = 0;
  }
}

function drawMarks<T>(
  ctx: CanvasRenderingContext2D,
  spec: ChartSpec<T>,
  domain: readonly [number, number],
  width: number,
  py: (value: number) => number,
  first: number,
  last: number,
): void {
  const columns = Math.ceil(plotWidth(width));
  const perSecond = plotWidth(width) / Math.max(1e-9, domain[1] - domain[0]);
  const { high, low, close, base } = columnsFor(columns);
  const runs = new RectRuns(ctx);
  if (spec.stacked) base.fill(0, 0, columns);
  for (const series of spec.series) {
    collect(spec, series.value, first, last, domain[0], perSecond, columns);
    ctx.fillStyle = series.color;
    if (spec.stacked) {
      // A band per series on top of the ones before it, its height the column's highest value.
      for (let c = 0; c < columns; c++) {
        if (Number.isNaN(high[c]!)) continue;
        const below = py(base[c]!);
        const top = base[c]! + high[c]!;
        const above = py(top);
        runs.add(MARGIN.left + c, above, 1, below - above);
        base[c] = top;
      }
    } else {
      // A 2-pixel line that holds each value for its whole second (a count does) and steps between them.
      let previous: number | null = null;
      for (let c = 0; c < columns; c++) {
        if (Number.isNaN(high[c]!)) {
          previous = null;
          continue;
        }
        const top = Math.min(py(high[c]!), previous ?? Number.POSITIVE_INFINITY);
        const bottom = Math.max(py(low[c]!), previous ?? Number.NEGATIVE_INFINITY);
        if (top === bottom) runs.add(MARGIN.left + c, top - 1, 1, 2);
        else runs.add(MARGIN.left + c - 1, top - 1, 2, bottom - top + 2);
        previous = py(close[c]!);
      }
    }
    runs.flush();
  }
}
