/**
 * The frame every layer of the timeline is laid out in: the lanes from top to bottom, the x scale of the
 * visible window, and which steps are in view. layout.ts builds one per layout; each layer (marks, leases,
 * spans, anomalies, clock, legend) reads it and returns its own pixels, as an Observable Plot mark does.
 */
import type { Actor, TraceStep } from '../../sim/types';
import type { TraceModel } from '../model';

// Vertical metrics, in px.
export const AXIS_HEIGHT = 24;
export const SYSTEM_LANE_HEIGHT = 42;
export const LANE_HEIGHT = 96;
export const LANE_MIN_HEIGHT = 74;
/** Below this a lane has no second row for labels that do not fit beside their neighbours. */
const STAGGER_MIN_HEIGHT = 90;
export const STEP_AXIS_HEIGHT = 18;

export interface TimelineLane {
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
  /**
   * The lane's life lines: from its first revealed step to its last, or to its crash; a worker that restarts
   * under the same name gets a new one from its restart. Empty when nothing is revealed.
   */
  lines: { x0: number; x1: number }[];
}

export interface Frame {
  model: TraceModel;
  steps: readonly TraceStep[];
  /** Steps revealed so far: only steps with index < position are drawn. */
  position: number;
  /** The drawing area's left and right edges, in px. */
  plot: { left: number; right: number };
  /** Slot coordinate → x in px, for this view. */
  sx: (u: number) => number;
  /** Step index → x in px. */
  xOf: (step: number) => number;
  /** Pixels per slot. */
  slot: number;
  /** Radius of a worker's marks, and of the clock's, operator's and rescuer's. */
  r: number;
  systemR: number;
  lanes: TimelineLane[];
  laneOf: (actor: Actor) => TimelineLane | undefined;
  /** Lanes tall enough for a second row of labels. */
  stagger: boolean;
  /** Slots laid out beyond each side of the view (see LayoutOptions.overscan). */
  overscan: number;
  /** The slots laid out (the view, a slot of margin, the overscan), and the steps revealed among them. */
  c0: number;
  c1: number;
  first: number;
  end: number;
  /** True when something from x0 to x1 (px) reaches into what is laid out. */
  inView: (x0: number, x1: number) => boolean;
  /** The same bounds in px. */
  cull: { left: number; right: number };
}

/** The lanes above the workers': the clock & operator's, and the rescuer's where the trace has one. */
export function systemLanes(model: TraceModel): number {
  return model.rescuer ? 2 : 1;
}

/** The lane an actor's steps are drawn in. */
export function laneIdOf(actor: Actor): string {
  return actor === 'clock' || actor === 'operator' ? 'system' : actor;
}

/**
 * Lanes, top to bottom: the clock & operator lane, the rescuer's (if any), then one per worker, each
 * `laneHeight` tall. Returns them and where the last one ends.
 */
export function layLanes(model: TraceModel, laneHeight: number): { lanes: TimelineLane[]; bottom: number; stagger: boolean } {
  const system = systemLanes(model);
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
    lines: [],
  });
  if (model.rescuer) {
    const top = plotTop + SYSTEM_LANE_HEIGHT;
    lanes.push({ id: 'rescuer', kind: 'system', label: 'rescuer', top, height: SYSTEM_LANE_HEIGHT, markY: top + 14, leaseY: top, lines: [] });
  }
  model.workers.forEach((id, i) => {
    const top = plotTop + system * SYSTEM_LANE_HEIGHT + i * laneHeight;
    lanes.push({ id, kind: 'worker', label: id, top, height: laneHeight, markY: top + 42, leaseY: top + 9, lines: [] });
  });
  return { lanes, bottom: plotTop + system * SYSTEM_LANE_HEIGHT + model.workers.length * laneHeight, stagger: laneHeight >= STAGGER_MIN_HEIGHT };
}
