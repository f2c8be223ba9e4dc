/**
 * The timeline as plain data: lanes, marks, lease bars, spans, anomaly brackets, ticks and legend,
 * all in pixels, for one trace, one size and one visible window. No DOM: d3 computes the scale and
 * React (or a snapshot test) draws what this returns. Same input, same output.
 *
 * x is the step index, one slot per step, plus a gap wherever the virtual clock moves. Positions along
 * x are given in slot coordinates ("u"): step i without clock gaps before it sits at u = i.
 */
import { bisectLeft, bisectRight, bisector } from 'd3';
import { byFirstStep } from '../sim/anomalies';
import { clockLabel, durationLabel } from '../sim/clock';
import type { Actor, AnomalyKind, Trace, TraceStep, Verdict } from '../sim/types';
import { ANOMALY_NAMES, markLabel, markSublabel, VERDICT_NAMES } from './describe';
import { anomaliesAt, type ClockBreak, type LeaseState, PRESENT_EDGE_SLOTS, type TimelineAxis, type TraceModel, traceModel, uAtSeconds } from './model';

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

export type MarkShape = 'circle' | 'ring' | 'no-entry' | 'triangle' | 'hourglass' | 'diamond' | 'cross';

interface TimelineLane {
  /** A worker id, 'system' for the clock & operator lane, or 'rescuer' for a queue's rescuer. */
  id: string;
  kind: 'worker' | 'system';
  label: string;
  top: number;
  height: number;
  /** Centre line of the lane's marks. */
  markY: number;
  /** Top of the lease bar row (worker lanes). */
  leaseY: number;
  /** The lane's life line: from its first revealed step to its last, or to its crash. Null when nothing is revealed. */
  line: { x0: number; x1: number } | null;
}

export interface TimelineMark {
  step: number;
  lane: string;
  x: number;
  y: number;
  r: number;
  verdict: Verdict;
  shape: MarkShape;
  /** Null when there is no room for it (the tooltip still has it). */
  label: { text: string; y: number } | null;
  sublabel: { text: string; y: number } | null;
  /** "#5 A work: ok". */
  title: string;
}

interface LeaseSegment {
  x0: number;
  x1: number;
  state: LeaseState;
  /** Text drawn inside the segment, or null when it does not fit. */
  text: string | null;
  textX: number;
}

interface TimelineBar {
  worker: string;
  runId: number;
  generation: number;
  /** "run 123 · gen 18". */
  label: string;
  x0: number;
  x1: number;
  y: number;
  height: number;
  /** The worker still believed it at the last revealed step. */
  open: boolean;
  segments: LeaseSegment[];
  /** Where the clock passed lease_expires_at while the worker still believed the lease was its own. */
  expiries: { x: number; seconds: number; label: string }[];
  /**
   * The heartbeats that moved lease_expires_at on: at the heartbeat's step (x), and where the lease would
   * have ended without it (fromX), with both times for the tooltip.
   */
  renewals: { step: number; x: number; fromX: number; fromSeconds: number; toSeconds: number }[];
  /** The row's lease_expires_at at the last revealed step while the lease is held (null: not known, or let go). */
  expiresAt: number | null;
  /** Where the present ends on this bar: what lies right of it is the lease's time still to come. */
  presentX: number;
}

interface TimelineSpan {
  kind: 'pause' | 'blocked' | 'hung';
  lane: string;
  fromStep: number;
  /** The step that ended it (the resume, or the step where the waiting statement ran), or null while it lasts. */
  toStep: number | null;
  x0: number;
  x1: number;
  y: number;
  height: number;
  text: string | null;
  textX: number;
}

interface TimelineCrash {
  worker: string;
  step: number;
  x: number;
  y: number;
  r: number;
  killed: boolean;
}

interface TimelineLinkStop {
  step: number;
  x: number;
  /** Where the connector starts: just below the mark. */
  y: number;
  markY: number;
  r: number;
}

export interface TimelineLink {
  kind: AnomalyKind;
  runId: number;
  steps: number[];
  workers: string[];
  message: string;
  /** "duplicate execution · run 123". */
  label: string;
  row: number;
  /** The bracket: a line at y from x0 to x1, with a stop under each of the anomaly's steps. */
  y: number;
  x0: number;
  x1: number;
  stops: TimelineLinkStop[];
  labelX: number;
  labelAnchor: 'start' | 'middle' | 'end';
  /** Estimated width of the label, for the plate drawn behind it. */
  labelWidth: number;
}

interface TimelineTick {
  x: number;
  label: string;
  anchor: 'start' | 'middle';
  /** A time shown at the left edge because its own tick scrolled out of view. */
  sticky?: boolean;
  step: number;
}

interface TimelineBreak {
  step: number;
  x: number;
  fromSeconds: number;
  toSeconds: number;
  /** "+51 s". */
  label: string;
}

export type LegendKey =
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
  legend: TimelineLegendItem[];
}

// Vertical metrics, in px.
const AXIS_HEIGHT = 24;
const SYSTEM_LANE_HEIGHT = 42;
const LANE_HEIGHT = 96;
const LANE_MIN_HEIGHT = 74;
/** Below this a lane has no second row for labels that do not fit beside their neighbours. */
const STAGGER_MIN_HEIGHT = 90;
const ANOMALY_ROW_HEIGHT = 20;
const ANOMALY_BAND_PAD = 6;
const STEP_AXIS_HEIGHT = 18;
const LEGEND_ROW_HEIGHT = 20;
const LEGEND_PAD = 8;
const LEASE_HEIGHT = 15;
/** A hung model call's band, under the lease bar. */
const HUNG_HEIGHT = 6;
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
const LABEL_FONT = 11;
const SUBLABEL_FONT = 9.5;
const BAR_FONT = 10;
const LEGEND_FONT = 11;

const widthCache = new Map<string, number>();

/** Width of one character in em, for a sans-serif font; a little generous so estimates err towards hiding. */
function charEm(code: number): number {
  if (code >= 48 && code <= 57) return 0.58; // digits
  if (code === 109 || code === 119 || code === 77 || code === 87) return 0.86; // m w M W
  if (code >= 65 && code <= 90) return 0.68; // capitals
  // i l j . , : ; ' ! | · space
  if (
    code === 105 ||
    code === 108 ||
    code === 106 ||
    code === 46 ||
    code === 44 ||
    code === 58 ||
    code === 59 ||
    code === 39 ||
    code === 33 ||
    code === 124 ||
    code === 183 ||
    code === 32
  )
    return 0.3;
  return 0.56;
}

/** Estimated width of a line of text, in px (no DOM to measure it with). */
export function textWidth(text: string, fontPx: number): number {
  const key = `${fontPx}|${text}`;
  const cached = widthCache.get(key);
  if (cached !== undefined) return cached;
  let em = 0;
  for (let i = 0; i < text.length; i++) em += charEm(text.charCodeAt(i));
  const width = em * fontPx;
  if (widthCache.size > 5000) widthCache.clear();
  widthCache.set(key, width);
  return width;
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
const LEGEND_SWATCH = 22;

function legendItemWidth(label: string): number {
  return LEGEND_SWATCH + 5 + textWidth(label, LEGEND_FONT) + 16;
}

/**
 * The whole legend, always: it holds still while a scenario unfolds (the app records the trace step by
 * step) and names what a learner will meet before they meet it.
 */
function legendLayout(width: number, top: number): { items: TimelineLegendItem[]; height: number } {
  const items: TimelineLegendItem[] = [];
  let x = 8;
  let row = 0;
  for (const item of LEGEND_ITEMS) {
    const w = legendItemWidth(item.label);
    if (x + w > width - 8 && x > 8) {
      row += 1;
      x = 8;
    }
    items.push({ ...item, x, y: top + LEGEND_PAD + row * LEGEND_ROW_HEIGHT + LEGEND_ROW_HEIGHT / 2 });
    x += w;
  }
  return { items, height: LEGEND_PAD + (row + 1) * LEGEND_ROW_HEIGHT + 4 };
}

function anomalyRows(trace: Trace, position: number): number {
  const model = traceModel(trace);
  const shown = anomaliesAt(trace, position).length;
  return Math.max(model.anomalyRows, Math.min(shown, 4));
}

function fixedHeight(rows: number, width: number, system = 1): number {
  const band = rows > 0 ? rows * ANOMALY_ROW_HEIGHT + 2 * ANOMALY_BAND_PAD : 0;
  return AXIS_HEIGHT + system * SYSTEM_LANE_HEIGHT + band + STEP_AXIS_HEIGHT + legendLayout(width, 0).height;
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

const SHAPES: Record<Verdict, MarkShape> = {
  ok: 'circle',
  empty: 'ring',
  rejected: 'no-entry',
  error: 'triangle',
  blocked: 'hourglass',
  event: 'diamond',
};

export function markShape(step: Pick<TraceStep, 'verdict' | 'action'>): MarkShape {
  if (step.action === 'crash') return 'cross';
  return SHAPES[step.verdict];
}

function laneIdOf(actor: Actor): string {
  return actor === 'clock' || actor === 'operator' ? 'system' : actor;
}

/** The lanes above the workers': the clock & operator's, and the rescuer's where the trace has one. */
function systemLanes(model: TraceModel): number {
  return model.rescuer ? 2 : 1;
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

  // Lanes, top to bottom: the clock & operator lane, the rescuer's (if any), then one per worker.
  const rows = anomalyRows(trace, position);
  const system = systemLanes(model);
  const fixed = fixedHeight(rows, width, system);
  const workerCount = model.workers.length;
  const laneHeight = workerCount === 0 ? LANE_HEIGHT : Math.max(LANE_MIN_HEIGHT, Math.min(LANE_HEIGHT, Math.floor((size.height - fixed) / workerCount)));
  const stagger = laneHeight >= STAGGER_MIN_HEIGHT;
  const r = Math.max(3, Math.min(7, slot * 0.2));
  const systemR = Math.min(r, 6);
  const lanes: TimelineLane[] = [];
  const plotTop = AXIS_HEIGHT;
  lanes.push({
    id: 'system',
    kind: 'system',
    label: 'clock & operator',
    top: plotTop,
    height: SYSTEM_LANE_HEIGHT,
    markY: plotTop + 14,
    leaseY: plotTop,
    line: null,
  });
  if (model.rescuer) {
    const top = plotTop + SYSTEM_LANE_HEIGHT;
    lanes.push({ id: 'rescuer', kind: 'system', label: 'rescuer', top, height: SYSTEM_LANE_HEIGHT, markY: top + 14, leaseY: top, line: null });
  }
  model.workers.forEach((id, i) => {
    const top = plotTop + system * SYSTEM_LANE_HEIGHT + i * laneHeight;
    lanes.push({ id, kind: 'worker', label: id, top, height: laneHeight, markY: top + 42, leaseY: top + 9, line: null });
  });
  const laneById = new Map(lanes.map((lane) => [lane.id, lane]));
  const lanesBottom = plotTop + system * SYSTEM_LANE_HEIGHT + workerCount * laneHeight;

  const lastShown = position - 1;
  const xOf = (step: number) => sx(model.u[step]!);
  // Steps in view (with a slot of margin so marks entering from the edge are drawn, plus any
  // overscan), among those revealed. Everything else is culled by the same bounds.
  const overscan = Math.max(0, options.overscan ?? 0);
  const c0 = v0 - 1 - overscan;
  const c1 = v1 + 1 + overscan;
  const cull = { left: sx(c0), right: sx(c1) };
  const first = Math.max(0, bisectLeft(model.u, c0));
  const end = Math.min(position, bisectRight(model.u, c1));
  const inView = (x0: number, x1: number) => x1 >= cull.left && x0 <= cull.right;

  // Marks and their labels. Labels that would collide with the previous one in their lane go to a
  // second row, or are left to the tooltip.
  const marks: TimelineMark[] = [];
  const rowEnds = new Map<string, [number, number, number]>();
  for (let i = first; i < end; i++) {
    const step = steps[i]!;
    const lane = laneById.get(laneIdOf(step.actor))!;
    const system = lane.kind === 'system';
    const markR = system ? systemR : r;
    const x = xOf(i);
    const text = markLabel(step, steps[i - 1]);
    const sub = system ? null : markSublabel(step, steps[i - 1]);
    const ends = rowEnds.get(lane.id) ?? [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const labelWidth = textWidth(text, LABEL_FONT);
    const subWidth = sub ? textWidth(sub, SUBLABEL_FONT) : 0;
    const y0 = lane.markY + markR + 12;
    const ys = y0 + 11;
    const y1 = ys + 13;
    let label: TimelineMark['label'] = null;
    let sublabel: TimelineMark['sublabel'] = null;
    // Words that would be cut by the plot's edge are left out (unless overscanning: then the drawing slides).
    const inside = (w: number) => overscan > 0 || (x - w / 2 >= left - 1 && x + w / 2 <= right + 1);
    if (slot >= 14 && inside(labelWidth) && x - labelWidth / 2 >= ends[0] + 4) {
      label = { text, y: y0 };
      ends[0] = x + labelWidth / 2;
      if (sub && slot >= 30 && inside(subWidth) && x - subWidth / 2 >= ends[1] + 4) {
        sublabel = { text: sub, y: ys };
        ends[1] = x + subWidth / 2;
      }
    } else if (slot >= 14 && stagger && !system && inside(labelWidth) && x - labelWidth / 2 >= ends[2] + 4) {
      label = { text, y: y1 };
      ends[2] = x + labelWidth / 2;
    }
    rowEnds.set(lane.id, ends);
    marks.push({
      step: i,
      lane: lane.id,
      x,
      y: lane.markY,
      r: markR,
      verdict: step.verdict,
      shape: markShape(step),
      label,
      sublabel,
      title: `#${i + 1} ${step.actor} ${step.action}: ${step.verdict}`,
    });
  }

  // Life lines: a worker's lane runs from the first revealed step to the last, and stops at its crash.
  const crashes: TimelineCrash[] = [];
  for (const crash of model.crashes) {
    if (crash.step >= position) continue;
    const lane = laneById.get(crash.worker);
    if (!lane) continue;
    crashes.push({ worker: crash.worker, step: crash.step, x: xOf(crash.step), y: lane.markY, r: Math.max(r, 5), killed: crash.killed });
  }
  if (position > 0) {
    for (const lane of lanes) {
      if (lane.kind === 'system') continue;
      const crash = crashes.find((c) => c.worker === lane.id);
      lane.line = { x0: xOf(0), x1: crash ? crash.x : xOf(lastShown) };
    }
  }

  const bars = leaseBars(model, position, sx, slot, laneById, { left, right }, inView);
  const spans: TimelineSpan[] = [];
  for (const span of model.spans) {
    if (span.start >= position) continue;
    const lane = laneById.get(laneIdOf(span.lane));
    if (!lane) continue;
    const closed = span.end !== null && span.end < position;
    const x0 = xOf(span.start);
    const x1 = closed ? xOf(span.end!) : xOf(lastShown) + slot * 0.45;
    if (!inView(x0, x1)) continue;
    const seconds = closed ? steps[span.end!]!.clockSeconds - steps[span.start]!.clockSeconds : null;
    const words =
      span.kind === 'pause'
        ? [seconds !== null ? `paused ${durationLabel(seconds)}` : 'paused', 'paused']
        : span.kind === 'hung'
          ? []
          : [`waits for ${span.holders.join(' & ') || 'a lock'}`, 'waits'];
    // A hung call is a thin band between the lease bar and the marks (its worker keeps stepping: heartbeats),
    // with no words of its own, so it never meets a mark's label; its tooltip and the legend name it.
    const hung = span.kind === 'hung';
    const height = hung ? HUNG_HEIGHT : lane.kind === 'system' ? 14 : 18;
    const textX = Math.max(x0, left) + r + 6;
    const room = Math.min(x1, right) - r - 6 - textX;
    spans.push({
      kind: span.kind,
      lane: lane.id,
      fromStep: span.start,
      toStep: closed ? span.end : null,
      x0,
      x1,
      y: hung ? lane.leaseY + LEASE_HEIGHT + 3 : lane.markY - height / 2,
      height,
      text: words.find((w) => textWidth(w, BAR_FONT) <= room) ?? null,
      textX,
    });
  }

  // Anomalies: one bracket row each under the lanes, joined by connectors to the marks of their steps.
  // Rows in the order the anomalies began, which a new step never changes (in the checkers' order, by
  // latest step, two rows swapped places on every step of the race).
  const anomalies = [...anomaliesAt(trace, position)].sort(byFirstStep);
  const bandTop = lanesBottom;
  const anomalyBand = rows > 0 ? { top: bandTop, bottom: bandTop + rows * ANOMALY_ROW_HEIGHT + 2 * ANOMALY_BAND_PAD } : null;
  const links: TimelineLink[] = [];
  const markByStep = new Map(marks.map((m) => [m.step, m]));
  anomalies.forEach((anomaly, i) => {
    const shown = anomaly.steps.filter((s) => s < position).sort((a, b) => a - b);
    if (shown.length === 0 || !anomalyBand) return;
    const row = Math.min(i, rows - 1);
    const y = anomalyBand.top + ANOMALY_BAND_PAD + row * ANOMALY_ROW_HEIGHT + ANOMALY_ROW_HEIGHT / 2;
    const stops = shown.map((s) => {
      const lane = laneById.get(laneIdOf(steps[s]!.actor))!;
      const markR = lane.kind === 'system' ? systemR : r;
      // The connector starts under the mark's words, so it never strikes through them.
      const mark = markByStep.get(s);
      const below = mark?.sublabel?.y ?? (mark?.label && mark.label.y < lane.markY + markR + 20 ? mark.label.y : null);
      return { step: s, x: xOf(s), y: below !== null ? below + 4 : lane.markY + markR + 3, markY: lane.markY, r: markR };
    });
    const x0 = stops[0]!.x;
    const x1 = stops.at(-1)!.x;
    if (!inView(x0, x1)) return;
    const name = ANOMALY_NAMES[anomaly.kind];
    const placed = placeLinkLabel([`${name} · run ${anomaly.runId}`, name], stops, { left, right });
    links.push({
      kind: anomaly.kind,
      runId: anomaly.runId,
      steps: shown,
      workers: anomaly.workers,
      message: anomaly.message,
      label: placed.text,
      row,
      y,
      x0,
      x1,
      stops,
      labelX: placed.x,
      labelAnchor: placed.anchor,
      labelWidth: placed.width,
    });
  });

  // The clock: a gap and a dashed rule where it moves, its time on the axis above.
  const breaks: TimelineBreak[] = [];
  for (const b of breaksIn(model, c0, c1)) {
    if (b.step >= position) break;
    const x = sx(b.u);
    breaks.push({ step: b.step, x, fromSeconds: b.fromSeconds, toSeconds: b.toSeconds, label: `+${durationLabel(b.toSeconds - b.fromSeconds)}` });
  }
  // Ticks half out of the plot are dropped, except while overscanning (the drawing slides under a clip).
  const tickBounds = overscan > 0 ? cull : { left, right };
  const timeTicks = clockTicks(steps, model, position, sx, slot, { ...tickBounds, first, c0, c1, sticky: overscan === 0 });
  const stepTicks = stepNumberTicks(first, end, xOf, slot).filter((t) => t.x - 8 >= tickBounds.left && t.x + 8 <= tickBounds.right);

  const stepAxisTop = anomalyBand?.bottom ?? lanesBottom;
  const legendTop = stepAxisTop + STEP_AXIS_HEIGHT;
  const legend = legendLayout(width, legendTop);
  return {
    width,
    height: Math.max(size.height, legendTop + legend.height),
    plot: { left, right, top: plotTop, bottom: lanesBottom },
    domain,
    view: [v0, v1],
    zoom: limits,
    slot,
    position,
    lanes,
    marks,
    bars,
    spans,
    crashes,
    links,
    breaks,
    timeTicks,
    stepTicks,
    axes: { timeY: 16, stepY: stepAxisTop + 13 },
    anomalyBand,
    legend: legend.items,
  };
}

function leaseBars(
  model: TraceModel,
  position: number,
  sx: (u: number) => number,
  slot: number,
  laneById: Map<string, TimelineLane>,
  plot: { left: number; right: number },
  inView: (x0: number, x1: number) => boolean,
): TimelineBar[] {
  const bars: TimelineBar[] = [];
  for (const lease of model.leases) {
    if (lease.start >= position) continue;
    const lane = laneById.get(lease.worker);
    if (!lane) continue;
    const closed = lease.end !== null && lease.end < position;
    const last = closed ? lease.end! : position - 1;
    const x0 = sx(model.u[lease.start]!);
    const changes = lease.changes.filter((c) => c.step <= last);
    const known = lease.expiresAt.filter((e) => e.step <= last);
    const expiresAt = closed ? null : (known.at(-1)?.seconds ?? null);
    // A lease still valid at the present reaches on to the row's lease_expires_at, ahead of the present;
    // each heartbeat moves that end. Once let go (completed, rejected) the bar ends where it was let go.
    const valid = !closed && changes.at(-1)?.state === 'valid';
    const present = sx(model.u[last]!) + (closed ? 0 : slot * PRESENT_EDGE_SLOTS);
    const reach = valid && expiresAt !== null ? sx(uAtSeconds(model, expiresAt, position)) : present;
    const x1 = Math.max(x0 + 2, present, reach);
    if (!inView(x0, x1)) continue;
    const renewals = known.slice(1).flatMap((e, i) => {
      const from = known[i]!.seconds;
      if (from === null || e.seconds === null || e.seconds <= from) return [];
      return [{ step: e.step, x: sx(model.u[e.step]!), fromX: sx(uAtSeconds(model, from, position)), fromSeconds: from, toSeconds: e.seconds }];
    });
    const label = `run ${lease.runId} · gen ${lease.generation}`;
    const segments: LeaseSegment[] = changes.map((change, i) => {
      const s0 = Math.max(x0, sx(change.u));
      const next = changes[i + 1];
      const s1 = next ? sx(next.u) : x1;
      // A segment's words keep clear of the expiry marker's head at either end (it was drawn touching them).
      const textX = Math.max(s0, plot.left) + 4 + (marksExpiry(change) ? EXPIRY_HEAD_HALF_WIDTH : 0);
      const room = Math.min(s1, plot.right) - 4 - (next && marksExpiry(next) ? EXPIRY_HEAD_HALF_WIDTH : 0) - textX;
      const words = segmentWords(change.state, change.detail, lease, label);
      const text = words.find((w) => textWidth(w, BAR_FONT) <= room) ?? null;
      return { x0: s0, x1: s1, state: change.state, text, textX };
    });
    const expiries = changes.filter(marksExpiry).map((c) => ({ x: sx(c.u), seconds: c.detail!, label: `lease expired at ${clockLabel(c.detail!)}` }));
    bars.push({
      worker: lease.worker,
      runId: lease.runId,
      generation: lease.generation,
      label,
      x0,
      x1,
      y: lane.leaseY,
      height: LEASE_HEIGHT,
      open: !closed,
      segments,
      expiries,
      renewals,
      expiresAt,
      presentX: present,
    });
  }
  return bars;
}

/**
 * Where an anomaly's label goes: after its bracket, else before it, else on the bracket in the widest
 * gap between two stops, trying the full text and then the short one; as a last resort over the
 * bracket's right end.
 */
function placeLinkLabel(
  texts: readonly string[],
  stops: readonly { x: number }[],
  plot: { left: number; right: number },
): { text: string; x: number; anchor: TimelineLink['labelAnchor']; width: number } {
  // The bracket's ends as drawn: one panned out of the plot is at its edge (a label after a bracket that
  // ends left of the plot went into the gutter, over the band's name).
  const x0 = Math.min(plot.right, Math.max(plot.left, stops[0]!.x));
  const x1 = Math.min(plot.right, Math.max(plot.left, stops.at(-1)!.x));
  const xs = stops.map((stop) => Math.max(plot.left, Math.min(plot.right, stop.x)));
  const widest = xs.slice(1).reduce((best, x, k) => Math.max(best, x - xs[k]!), 0);
  const gapAt = xs.slice(1).findIndex((x, k) => x - xs[k]! === widest);
  for (const text of texts) {
    // Link labels are semibold: wider than the estimate for regular text.
    const width = textWidth(text, LABEL_FONT) * 1.2;
    if (x1 + 10 + width <= plot.right) return { text, x: x1 + 10, anchor: 'start', width };
    if (x0 - 10 - width >= plot.left) return { text, x: x0 - 10, anchor: 'end', width };
    if (gapAt >= 0 && widest >= width + 12) return { text, x: (xs[gapAt]! + xs[gapAt + 1]!) / 2, anchor: 'middle', width };
  }
  const text = texts.at(-1)!;
  const width = textWidth(text, LABEL_FONT) * 1.2;
  return { text, x: Math.max(plot.left + 2, plot.right - width), anchor: 'start', width };
}

/** What a lease segment says, longest first: the first that fits is drawn. */
function segmentWords(state: LeaseState, detail: number | null, lease: { worker: string; runId: number; generation: number }, label: string): string[] {
  switch (state) {
    case 'valid':
      return [label, `gen ${lease.generation}`];
    case 'expired':
      return [`expired, ${lease.worker} still believes it owns run ${lease.runId}`, 'expired, still believed', 'expired'];
    case 'superseded':
      return [`superseded by gen ${detail}, ${lease.worker} still believes gen ${lease.generation}`, `superseded by gen ${detail}`, 'superseded'];
    case 'orphan':
      return [`orphaned: ${lease.worker} is gone, the row still holds the lease`, `orphaned: ${lease.worker} is gone`, 'orphaned'];
    case 'orphan-expired':
      return ['expired: the run can be reclaimed', 'expired, reclaimable', 'expired'];
    case 'rolled-back':
      return [
        `gen ${lease.generation} rolled back: ${lease.worker} crashed before its commit, never held`,
        `gen ${lease.generation} rolled back`,
        'rolled back',
      ];
  }
}

const byU = bisector((b: ClockBreak) => b.u);

/** The clock breaks between slot coordinates u0 and u1, found by bisection: panning a long trace stays cheap. */
function breaksIn(model: TraceModel, u0: number, u1: number): ClockBreak[] {
  return model.breaks.slice(byU.left(model.breaks, u0), byU.right(model.breaks, u1));
}

function clockTicks(
  steps: readonly TraceStep[],
  model: TraceModel,
  position: number,
  sx: (u: number) => number,
  slot: number,
  at: { left: number; right: number; first: number; c0: number; c1: number; sticky: boolean },
): TimelineTick[] {
  if (position === 0) return [];
  const width = textWidth('15:00:00', LABEL_FONT);
  const candidates: TimelineTick[] = [{ x: sx(model.u[0]!) - Math.min(slot, 40) / 2, label: clockLabel(steps[0]!.clockSeconds), anchor: 'start', step: 0 }];
  for (const b of breaksIn(model, at.c0 - width / slot, at.c1)) {
    if (b.step >= position) break;
    candidates.push({ x: sx(b.u) + 3, label: clockLabel(b.toSeconds), anchor: 'start', step: b.step });
  }
  const visible = candidates.filter((t) => t.x + width >= at.left && t.x <= at.right - width);
  const ticks: TimelineTick[] = [];
  // When the tick naming the time at the left edge has scrolled away, repeat that time at the edge.
  const firstVisible = visible[0];
  if (at.sticky && (!firstVisible || firstVisible.x > at.left + width + 6)) {
    const step = steps[Math.min(at.first, position - 1)]!;
    ticks.push({ x: at.left + 2, label: clockLabel(step.clockSeconds), anchor: 'start', sticky: true, step: step.index });
  }
  for (const tick of visible) {
    const previous = ticks.at(-1);
    if (previous && tick.x < previous.x + width + 6) continue;
    ticks.push({ ...tick, x: Math.max(tick.x, at.left) });
  }
  return ticks;
}

function stepNumberTicks(first: number, end: number, xOf: (step: number) => number, slot: number): TimelineTick[] {
  const widest = textWidth(String(end), SUBLABEL_FONT) + 8;
  const every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find((k) => k * slot >= widest) ?? 1000;
  const ticks: TimelineTick[] = [];
  for (let i = first; i < end; i++) {
    if ((i + 1) % every === 0 || (every > 1 && i === 0)) ticks.push({ x: xOf(i), label: String(i + 1), anchor: 'middle', step: i });
  }
  return ticks;
}

/** Half the width of the expiry marker's head (TimelineSvg draws it 9 px wide, centred on the expiry). */
export const EXPIRY_HEAD_HALF_WIDTH = 4.5;

/** A lease change drawn with an expiry marker: the clock passed lease_expires_at. */
function marksExpiry(change: { state: string; detail: number | null }): boolean {
  return (change.state === 'expired' || change.state === 'orphan-expired') && change.detail !== null;
}
