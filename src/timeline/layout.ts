/**
 * The timeline as plain data: lanes, marks, lease bars, spans, anomaly brackets, ticks and legend,
 * all in pixels, for one trace, one size and one visible window. No DOM: d3 computes the scale and
 * React (or a snapshot test) draws what this returns. Same input, same output.
 *
 * x is the step index, one slot per step, plus a gap wherever the virtual clock moves. Positions along
 * x are given in slot coordinates ("u"): step i without clock gaps before it sits at u = i.
 *
 * This file sizes the frame (the lanes' heights, the x domain, the visible window and its zoom) and
 * hands it to each visual layer in ./layers/, one file per layer with its layout and its drawing.
 */
import { bisectLeft, bisectRight } from 'd3';
import type { Trace } from '../sim/types';
import { anomalyBandHeight, anomalyRows, layoutAnomalies, type TimelineLink } from './layers/anomalies';
import { layoutBreaks, layoutTicks, type TimelineBreak, type TimelineTick } from './layers/clock';
import {
  AXIS_HEIGHT,
  type Frame,
  LANE_HEIGHT,
  LANE_MIN_HEIGHT,
  layLanes,
  laneIdOf,
  STEP_AXIS_HEIGHT,
  SYSTEM_LANE_HEIGHT,
  systemLanes,
  type TimelineLane,
} from './layers/frame';
import { layoutBars, type TimelineBar } from './layers/leases';
import { layoutLegend } from './layers/legend';
import { layoutCrashes, layoutMarks, type TimelineCrash, type TimelineMark } from './layers/marks';
import { layoutSpans, type TimelineSpan } from './layers/spans';
import { type TimelineAxis, type TraceModel, traceModel } from './model';

export interface TimelineSize {
  width: number;
  height: number;
}

/** The visible window along x, in slot coordinates. */
export interface TimelineView {
  x0: number;
  x1: number;
}

export interface LayoutOptions {
  /** Steps revealed so far: only steps with index < position are drawn. Default: all. */
  position?: number;
  /**
   * Also lay out this many slots beyond each side of the view. While a drag pans the timeline, the
   * component slides the drawing sideways and lays it out again only when the overscan runs out.
   */
  overscan?: number;
  /** The step axis (default) or the time-proportional one. */
  axis?: TimelineAxis;
}

export interface TimelineLayout {
  width: number;
  height: number;
  /** The drawing area for steps; lane names sit to its left. */
  plot: { left: number; right: number; top: number; bottom: number };
  /** Everything x can show, and what it shows now, in slot coordinates. */
  domain: [number, number];
  view: [number, number];
  /** Narrowest and widest windows zoom may choose, in slot coordinates. */
  zoom: { minSpan: number; maxSpan: number };
  /** Pixels per slot in this view. */
  slot: number;
  position: number;
  lanes: TimelineLane[];
  marks: TimelineMark[];
  bars: TimelineBar[];
  spans: TimelineSpan[];
  crashes: TimelineCrash[];
  links: TimelineLink[];
  breaks: TimelineBreak[];
  timeTicks: TimelineTick[];
  stepTicks: TimelineTick[];
  /** Baselines of the clock labels (above the lanes) and of the step numbers (below them). */
  axes: { timeY: number; stepY: number };
  anomalyBand: { top: number; bottom: number } | null;
  legend: ReturnType<typeof layoutLegend>['items'];
}

// Horizontal metrics, in px.
const GUTTER = 64;
const RIGHT_PAD = 14;
/** Wider slots than this leave room at the right instead: a 9-step trace should not look stretched. */
const MAX_SLOT = 110;
/** How much room the x domain makes at a time once the steps no longer fit one plot (see fullDomain). */
const DOMAIN_GROWTH = 1.5;
/** The default view zooms in until slots are at least this wide, so labels can be read. */
const COMFORT_SLOT = 44;
/** Zooming out stops here: a few thousand marks in view would make panning stutter. */
const MIN_SLOT = 3;
const MIN_SPAN_SLOTS = 4;

function fixedHeight(rows: number, width: number, system = 1): number {
  return AXIS_HEIGHT + system * SYSTEM_LANE_HEIGHT + anomalyBandHeight(rows) + STEP_AXIS_HEIGHT + layoutLegend(width, 0).height;
}

/** The height at which every lane gets its full room: what the component uses unless told otherwise. */
export function timelineHeight(trace: Trace, width: number, position = trace.steps.length): number {
  const model = traceModel(trace);
  return fixedHeight(anomalyRows(trace, position), width, systemLanes(model)) + model.workers.length * LANE_HEIGHT;
}

/**
 * The slot coordinates x can show, given the plot width: all steps, and never wider than MAX_SLOT each.
 * Past one plot of MAX_SLOT slots, the domain grows by DOMAIN_GROWTH at a time, not by one slot per step:
 * a new step then usually lands in room already there, so the marks drawn before it stay where they are
 * (the learner's eye can follow them, and the step redraws only what is new) and the axis rescales once
 * every few steps.
 */
function fullDomain(model: TraceModel, plotWidth: number): [number, number] {
  const d0 = -0.6;
  const needed = Math.max(model.u.at(-1) ?? 0, model.reach) + 0.6 - d0;
  const onePlot = plotWidth / MAX_SLOT;
  if (needed <= onePlot) return [d0, d0 + onePlot];
  const growths = Math.ceil(Math.log(needed / onePlot) / Math.log(DOMAIN_GROWTH) - 1e-9);
  return [d0, d0 + onePlot * DOMAIN_GROWTH ** growths];
}

function zoomLimits(domain: [number, number], plotWidth: number): { minSpan: number; maxSpan: number } {
  const full = domain[1] - domain[0];
  const maxSpan = Math.min(full, plotWidth / MIN_SLOT);
  return { minSpan: Math.min(MIN_SPAN_SLOTS, maxSpan), maxSpan };
}

/** A window of the given span, moved inside the domain and squeezed to the zoom limits. */
function clampView(view: TimelineView, domain: [number, number], limits: { minSpan: number; maxSpan: number }): [number, number] {
  const span = Math.min(limits.maxSpan, Math.max(limits.minSpan, view.x1 - view.x0));
  const centre = (view.x0 + view.x1) / 2;
  let x0 = centre - span / 2;
  x0 = Math.max(domain[0], Math.min(x0, domain[1] - span));
  return [x0, x0 + span];
}

function plotWidthOf(size: TimelineSize): number {
  return Math.max(40, size.width - GUTTER - RIGHT_PAD);
}

function latestU(model: TraceModel, position: number): number {
  const latest = Math.min(position, model.u.length) - 1;
  return latest >= 0 ? model.u[latest]! : 0;
}

/**
 * The window shown before the learner zooms: every step if they fit at a readable width, otherwise a
 * readable window whose last quarter holds the latest revealed step.
 */
export function defaultTimelineView(trace: Trace, size: TimelineSize, position = trace.steps.length, axis: TimelineAxis = 'steps'): TimelineView {
  const model = traceModel(trace, axis);
  const plotWidth = plotWidthOf(size);
  const domain = fullDomain(model, plotWidth);
  if (plotWidth / (domain[1] - domain[0]) >= COMFORT_SLOT) return { x0: domain[0], x1: domain[1] };
  const span = plotWidth / COMFORT_SLOT;
  // The window's end moves a quarter of its width at a time, as the domain grows (fullDomain): most
  // steps land in room already shown and leave every mark before them where it was.
  const stride = span / 4;
  const firstEnd = domain[0] + span;
  const x1 = firstEnd + Math.max(0, Math.ceil((latestU(model, position) + 1.2 - firstEnd) / stride - 1e-9)) * stride;
  const [x0, y1] = clampView({ x0: x1 - span, x1 }, domain, zoomLimits(domain, plotWidth));
  return { x0, x1: y1 };
}

/**
 * The same window if the latest revealed step is inside it; otherwise the window of the same width that
 * ends just after that step (what comes later is not revealed, so there is nothing to show beyond it).
 */
export function followLatest(trace: Trace, view: TimelineView, position: number, axis: TimelineAxis = 'steps'): TimelineView {
  if (position <= 0) return view;
  const u = latestU(traceModel(trace, axis), position);
  const span = view.x1 - view.x0;
  const room = Math.min(1.2, span / 4);
  if (u > view.x1 - room || u < view.x0 + room) return { x0: u + room - span, x1: u + room };
  return view;
}

/**
 * The view's axis, u → x: d3's scaleLinear arithmetic (normalise, then a*(1-t) + b*t), written out because
 * importing d3-scale here would bring d3-interpolate, d3-color and d3-format into the first load (about
 * 9 kB gzip) for one affine map; the zoom and the charts, which load later, use d3-scale itself.
 */
function linearMap([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): (u: number) => number {
  const span = d1 - d0;
  return (u) => {
    const t = span ? (u - d0) / span : 0.5;
    return r0 * (1 - t) + r1 * t;
  };
}

/** Lays the timeline out. `view` defaults to defaultTimelineView(); marks outside it are left out. */
export function layoutTimeline(trace: Trace, size: TimelineSize, view?: TimelineView, options: LayoutOptions = {}): TimelineLayout {
  const model = traceModel(trace, options.axis);
  const steps = trace.steps;
  const position = Math.max(0, Math.min(options.position ?? steps.length, steps.length));
  const width = Math.max(120, size.width);
  const plotWidth = plotWidthOf({ width, height: size.height });
  const left = GUTTER;
  const right = left + plotWidth;
  const domain = fullDomain(model, plotWidth);
  const limits = zoomLimits(domain, plotWidth);
  const [v0, v1] = clampView(view ?? defaultTimelineView(trace, { width, height: size.height }, position, options.axis), domain, limits);
  const sx = linearMap([v0, v1], [left, right]);
  const slot = plotWidth / (v1 - v0);

  const rows = anomalyRows(trace, position);
  const fixed = fixedHeight(rows, width, systemLanes(model));
  const workerCount = model.workers.length;
  const laneHeight = workerCount === 0 ? LANE_HEIGHT : Math.max(LANE_MIN_HEIGHT, Math.min(LANE_HEIGHT, Math.floor((size.height - fixed) / workerCount)));
  const { lanes, bottom: lanesBottom, stagger } = layLanes(model, laneHeight);
  const laneById = new Map(lanes.map((lane) => [lane.id, lane]));
  const r = Math.max(3, Math.min(7, slot * 0.2));

  // Steps in view (with a slot of margin so marks entering from the edge are drawn, plus any
  // overscan), among those revealed. Everything else is culled by the same bounds.
  const overscan = Math.max(0, options.overscan ?? 0);
  const c0 = v0 - 1 - overscan;
  const c1 = v1 + 1 + overscan;
  const cull = { left: sx(c0), right: sx(c1) };
  const frame: Frame = {
    model,
    steps,
    position,
    plot: { left, right },
    sx,
    xOf: (step) => sx(model.u[step]!),
    slot,
    r,
    systemR: Math.min(r, 6),
    lanes,
    laneOf: (actor) => laneById.get(laneIdOf(actor)),
    stagger,
    overscan,
    c0,
    c1,
    first: Math.max(0, bisectLeft(model.u, c0)),
    end: Math.min(position, bisectRight(model.u, c1)),
    inView: (x0, x1) => x1 >= cull.left && x0 <= cull.right,
    cull,
  };

  const marks = layoutMarks(frame);
  const crashes = layoutCrashes(frame);
  const anomalyBand = rows > 0 ? { top: lanesBottom, bottom: lanesBottom + anomalyBandHeight(rows) } : null;
  const stepAxisTop = anomalyBand?.bottom ?? lanesBottom;
  const legendTop = stepAxisTop + STEP_AXIS_HEIGHT;
  const legend = layoutLegend(width, legendTop);
  return {
    width,
    height: Math.max(size.height, legendTop + legend.height),
    plot: { left, right, top: AXIS_HEIGHT, bottom: lanesBottom },
    domain,
    view: [v0, v1],
    zoom: limits,
    slot,
    position,
    lanes,
    marks,
    bars: layoutBars(frame),
    spans: layoutSpans(frame),
    crashes,
    links: layoutAnomalies(frame, trace, marks, anomalyBand, rows),
    breaks: layoutBreaks(frame),
    ...layoutTicks(frame),
    axes: { timeY: 16, stepY: stepAxisTop + 13 },
    anomalyBand,
    legend: legend.items,
  };
}
