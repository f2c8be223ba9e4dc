/** The backpressure charts' marks: pixel-aligned rectangles per column, only inside the plot, runs merged. */
import { describe, expect, it } from 'vitest';
import { type ChartColors, type ChartSpec, drawChart, MARGIN } from '../../src/charts/draw';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  color: string;
}

/** A 2D context that records the data marks (fillRect) and ignores the rest. */
function recorder() {
  const rects: Rect[] = [];
  let fill = '';
  const ignore = () => undefined;
  const ctx = {
    set fillStyle(value: string) {
      fill = value;
    },
    get fillStyle() {
      return fill;
    },
    fillRect: (x: number, y: number, w: number, h: number) => rects.push({ x, y, w, h, color: fill }),
    clearRect: ignore,
    beginPath: ignore,
    moveTo: ignore,
    lineTo: ignore,
    stroke: ignore,
    fillText: ignore,
    save: ignore,
    restore: ignore,
    rect: ignore,
    clip: ignore,
    setLineDash: ignore,
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, rects };
}

const colors: ChartColors = { ink: '#000', muted: '#555', grid: '#ddd', bg: '#fff', cap: '#a40', cursor: '#000' };
const WIDTH = 250;
const HEIGHT = 100;
const plotRight = WIDTH - MARGIN.right;

function spec(values: number[][], stacked: boolean, upTo = values[0]!.length - 1): ChartSpec<number> {
  return {
    points: values[0]!.map((_, i) => i),
    series: values.map((series, k) => ({ label: `s${k}`, color: `c${k}`, value: (i: number) => series[i]! })),
    stacked,
    caps: [],
    yMax: 10,
    upTo,
    formatY: String,
    integer: true,
  };
}

describe('chart marks', () => {
  it('draw a flat line as one 2-pixel rectangle across the plot, and a step as a short vertical one', () => {
    const { ctx, rects } = recorder();
    drawChart(ctx, WIDTH, HEIGHT, [0, 99], spec([Array.from({ length: 100 }, () => 4)], false), colors);
    expect(rects).toHaveLength(1);
    expect(rects[0]).toMatchObject({ x: MARGIN.left, h: 2, color: 'c0' });
    expect(rects[0]!.x + rects[0]!.w).toBeGreaterThan(plotRight - 5);

    const stepped = recorder();
    drawChart(stepped.ctx, WIDTH, HEIGHT, [0, 99], spec([Array.from({ length: 100 }, (_, i) => (i < 50 ? 2 : 6))], false), colors);
    const vertical = stepped.rects.filter((r) => r.h > 2);
    expect(vertical).toHaveLength(1);
    expect(vertical[0]!.w).toBe(2);
    expect(stepped.rects).toHaveLength(3);
  });

  it('stack bands that meet without gaps, every mark on whole pixels inside the plot', () => {
    const { ctx, rects } = recorder();
    const a = Array.from({ length: 10_000 }, (_, i) => (i % 7) + 1);
    const b = Array.from({ length: 10_000 }, (_, i) => (i % 3) + 1);
    drawChart(ctx, WIDTH, HEIGHT, [2000, 9000], spec([a, b], true), colors);
    for (const r of rects) {
      expect([r.x, r.y, r.w, r.h].every(Number.isInteger)).toBe(true);
      expect(r.x).toBeGreaterThanOrEqual(MARGIN.left);
      expect(r.x + r.w).toBeLessThanOrEqual(plotRight + 1);
    }
    // Column by column, the second band starts exactly where the first one ends.
    const topOfFirst = new Map<number, number>();
    for (const r of rects.filter((r) => r.color === 'c0')) for (let x = r.x; x < r.x + r.w; x++) topOfFirst.set(x, r.y);
    const second = rects.filter((r) => r.color === 'c1');
    expect(second.length).toBeGreaterThan(0);
    for (const r of second) for (let x = r.x; x < r.x + r.w; x++) expect(r.y + r.h).toBe(topOfFirst.get(x));
    // 7,000 seconds on 200 pixels: a few hundred marks, not thousands.
    expect(rects.length).toBeLessThan(2 * 200 + 10);
  });

  it('stop at the cursor', () => {
    const { ctx, rects } = recorder();
    drawChart(ctx, WIDTH, HEIGHT, [0, 99], spec([Array.from({ length: 100 }, () => 4)], false, 49), colors);
    const end = Math.max(...rects.map((r) => r.x + r.w));
    expect(end).toBeGreaterThan(MARGIN.left + 90);
    expect(end).toBeLessThan(MARGIN.left + 110);
  });
});
