/**
 * A time series chart: React owns the canvas, the chart draws inside it. Drag to pan, wheel (or pinch)
 * to zoom; every chart sharing the ZoomSync follows. Redraws are coalesced to one per frame.
 */
import { select, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from 'd3';
import { useEffect, useRef } from 'react';
import { chartColors, useThemeVersion } from './colors';
import { type ChartColors, type ChartSpec, drawChart, MARGIN, plotWidth, xScale } from './draw';
import type { Domain, ZoomSync } from './zoom-sync';

export interface TimeChartProps<T> {
  spec: ChartSpec<T>;
  /** Every second the chart may show: [0, last]. */
  full: Domain;
  sync: ZoomSync;
  height: number;
  label: string;
}

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

    // Zoom: the transform maps the full range onto the plot; the shared domain is what it shows.
    const behaviour: ZoomBehavior<HTMLCanvasElement, unknown> = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, 400])
      .extent(() => [
        [MARGIN.left, 0],
        [MARGIN.left + plotWidth(width), height],
      ])
      .translateExtent([
        [MARGIN.left, 0],
        [MARGIN.left + plotWidth(width), height],
      ])
      .on('zoom', (event: { transform: ZoomTransform; sourceEvent: unknown }) => {
        if (!event.sourceEvent) return;
        const base = xScale(latest.current.full, width);
        const [from, to] = event.transform.rescaleX(base).domain() as [number, number];
        sync.set(event.transform.k === 1 ? null : [from, to], canvas);
      });
    const selection = select(canvas);
    selection.call(behaviour).on('dblclick.zoom', null);
    selection.on('dblclick', () => sync.set(null, null));
    // Follow other charts: put this chart's own zoom state where the shared domain says.
    const follow = (domain: Domain | null, source: object | null) => {
      if (source !== canvas) {
        const [start, end] = latest.current.full;
        const span = Math.max(1e-9, end - start);
        if (domain === null) selection.property('__zoom', zoomIdentity);
        else {
          const k = span / Math.max(1e-9, domain[1] - domain[0]);
          const base = xScale(latest.current.full, width);
          // The zoom maps screen x to x * k + t; the domain's start must land on the plot's left edge.
          const t = MARGIN.left - base(domain[0]) * k;
          selection.property('__zoom', zoomIdentity.translate(t, 0).scale(k));
        }
      }
      schedule();
    };
    const unsubscribe = sync.subscribe(follow);
    const resize = new ResizeObserver(schedule);
    resize.observe(canvas);
    schedule();
    return () => {
      unsubscribe();
      resize.disconnect();
      selection.on('.zoom', null).on('dblclick', null);
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

  return <canvas ref={canvasRef} className="bp-canvas" style={{ height }} role="img" aria-label={label} title="Drag to pan, wheel to zoom, double-click to show everything" />;
}
