/**
 * A time series chart: React owns the canvas, the chart draws inside it. Drag to pan, wheel (or pinch)
 * to zoom; every chart sharing the ZoomSync follows. Redraws are coalesced to one per frame.
 */
import { select } from 'd3';
import { useEffect, useRef } from 'react';
import { chartColors, useThemeVersion } from './colors';
import { attachAxisZoom } from './axis-zoom';
import { type ChartColors, type ChartSpec, drawChart, MARGIN, plotWidth } from './draw';
import type { Domain, ZoomSync } from './zoom-sync';

export interface TimeChartProps<T> {
  spec: ChartSpec<T>;
  /** Every second the chart may show: [0, last]. */
  full: Domain;
  sync: ZoomSync;
  height: number;
  label: string;
}

/** How far in a chart zooms: a four-hundredth of its range. */
const MAX_ZOOM = 400;

export function TimeChart<T>({ spec, full, sync, height, label }: TimeChartProps<T>) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const latest = useRef({ spec, full });
  latest.current = { spec, full };
  const redraw = useRef<() => void>(() => undefined);
  /** The theme's colours, read from the CSS once per theme rather than on every frame of a pan. */
  const colors = useRef<ChartColors | null>(null);
  const theme = useThemeVersion();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let frame = 0;
    let width = canvas.clientWidth;
    const draw = () => {
      frame = 0;
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      const ratio = window.devicePixelRatio || 1;
      width = canvas.clientWidth;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
      }
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      colors.current ??= chartColors(canvas);
      drawChart(ctx, width, height, sync.current ?? latest.current.full, latest.current.spec, colors.current);
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(draw);
    };
    redraw.current = schedule;

    // Zoom (axis-zoom.ts): drag, wheel and pinch are d3-zoom's own gestures; the shared domain is what it shows.
    const axis = attachAxisZoom(canvas, {
      full: () => latest.current.full,
      plot: () => [MARGIN.left, MARGIN.left + plotWidth(width)],
      spans: () => ({ min: (latest.current.full[1] - latest.current.full[0]) / MAX_ZOOM, max: latest.current.full[1] - latest.current.full[0] }),
      onChange: (shown, _source, transform) => sync.set(transform.k === 1 ? null : shown, canvas),
    });
    const selection = select(canvas);
    selection.on('dblclick', () => sync.set(null, null));
    // Follow other charts: show what the shared domain says.
    const follow = (domain: Domain | null, source: object | null) => {
      if (source !== canvas) axis.show(domain ?? latest.current.full);
      schedule();
    };
    const unsubscribe = sync.subscribe(follow);
    const resize = new ResizeObserver(schedule);
    resize.observe(canvas);
    schedule();
    return () => {
      unsubscribe();
      resize.disconnect();
      axis.detach();
      selection.on('dblclick', null);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [sync, height]);

  // New data, a new cursor or a new theme: draw again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the drawing reads the latest props from a ref; these say when to redraw
  useEffect(() => redraw.current(), [spec, full]);
  useEffect(() => {
    if (theme === 0) return;
    colors.current = null;
    redraw.current();
  }, [theme]);

  return (
    <canvas
      ref={canvasRef}
      className="bp-canvas"
      style={{ height }}
      role="img"
      aria-label={label}
      title="Drag to pan, wheel to zoom, double-click to show everything"
    />
  );
}
