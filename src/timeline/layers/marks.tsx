/**
 * The marks layer: one symbol per step in its actor's lane, with the step's label and sublabel where they
 * fit, a cross where a worker was killed, and each worker's life line.
 */
import { memo } from 'react';
import type { TraceStep, Verdict } from '../../sim/types';
import { markLabel, markSublabel } from '../describe';
import { FONT, textWidth } from '../text-width';
import { type MarkShape, px, symbolPath } from '../theme';
import type { Frame } from './frame';

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

export interface TimelineCrash {
  worker: string;
  step: number;
  x: number;
  y: number;
  r: number;
  killed: boolean;
}

/** Each verdict's symbol: colour is never the only cue. */
export const VERDICT_SHAPES: Readonly<Record<Verdict, MarkShape>> = {
  ok: 'circle',
  empty: 'ring',
  rejected: 'no-entry',
  error: 'triangle',
  blocked: 'hourglass',
  event: 'diamond',
};

export function markShape(step: Pick<TraceStep, 'verdict' | 'action'>): MarkShape {
  if (step.action === 'crash') return 'cross';
  return VERDICT_SHAPES[step.verdict];
}

/**
 * The marks of the steps in view and their labels. A label that would collide with the previous one in its
 * lane goes to a second row, or is left to the tooltip.
 */
export function layoutMarks(frame: Frame): TimelineMark[] {
  const { steps, xOf, slot, r, systemR, stagger, overscan, plot } = frame;
  const marks: TimelineMark[] = [];
  const rowEnds = new Map<string, [number, number, number]>();
  for (let i = frame.first; i < frame.end; i++) {
    const step = steps[i]!;
    const lane = frame.laneOf(step.actor)!;
    const system = lane.kind === 'system';
    const markR = system ? systemR : r;
    const x = xOf(i);
    const text = markLabel(step, steps[i - 1]);
    const sub = system ? null : markSublabel(step, steps[i - 1]);
    const ends = rowEnds.get(lane.id) ?? [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const labelWidth = textWidth(text, FONT.label);
    const subWidth = sub ? textWidth(sub, FONT.sublabel) : 0;
    const y0 = lane.markY + markR + 12;
    const ys = y0 + 11;
    const y1 = ys + 13;
    let label: TimelineMark['label'] = null;
    let sublabel: TimelineMark['sublabel'] = null;
    // Words that would be cut by the plot's edge are left out (unless overscanning: then the drawing slides).
    const inside = (w: number) => overscan > 0 || (x - w / 2 >= plot.left - 1 && x + w / 2 <= plot.right + 1);
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
  return marks;
}

/** Crashes and kills revealed so far; and each worker's life line, from its first revealed step to its last or to its crash. */
export function layoutCrashes(frame: Frame): TimelineCrash[] {
  const { position, xOf } = frame;
  const crashes: TimelineCrash[] = [];
  for (const crash of frame.model.crashes) {
    if (crash.step >= position) continue;
    const lane = frame.laneOf(crash.worker);
    if (!lane) continue;
    crashes.push({ worker: crash.worker, step: crash.step, x: xOf(crash.step), y: lane.markY, r: Math.max(frame.r, 5), killed: crash.killed });
  }
  if (position > 0) {
    for (const lane of frame.lanes) {
      if (lane.kind === 'system') continue;
      lane.lines = lifeLines(lane.id, crashes, frame.model.restarts, position, xOf);
    }
  }
  return crashes;
}

/** One line per life of the worker: each ends at its crash, and a restart begins the next. */
function lifeLines(
  worker: string,
  crashes: readonly TimelineCrash[],
  restarts: readonly { worker: string; step: number }[],
  position: number,
  xOf: (step: number) => number,
): { x0: number; x1: number }[] {
  const ends = crashes.filter((c) => c.worker === worker).map((c) => ({ step: c.step, x: c.x, starts: false }));
  const starts = restarts.filter((r) => r.worker === worker && r.step < position).map((r) => ({ step: r.step, x: xOf(r.step), starts: true }));
  const lines: { x0: number; x1: number }[] = [];
  let from: number | null = xOf(0);
  for (const event of [...ends, ...starts].sort((a, b) => a.step - b.step)) {
    if (event.starts) from = event.x;
    else if (from !== null) {
      lines.push({ x0: from, x1: event.x });
      from = null;
    }
  }
  if (from !== null) lines.push({ x0: from, x1: xOf(position - 1) });
  return lines;
}

export const LifeLines = memo(function LifeLines({ lanes }: { lanes: readonly Frame['lanes'][number][] }) {
  return (
    <g>
      {lanes.map((lane) =>
        lane.lines.map((line) => (
          <line key={`${lane.id}-${line.x0}`} className="tl-lifeline" x1={px(line.x0)} x2={px(line.x1)} y1={lane.markY} y2={lane.markY} />
        )),
      )}
    </g>
  );
});

function markClass(mark: TimelineMark): string {
  return `tl-mark tl-v-${mark.verdict}${mark.shape === 'cross' ? ' tl-shape-cross' : ''}`;
}

// The symbols first, then every label above them, then every sublabel: a label is never hidden under a neighbour's mark.
export const Marks = memo(function Marks({ marks, crashes }: { marks: readonly TimelineMark[]; crashes: readonly TimelineCrash[] }) {
  return (
    <g>
      {crashes
        .filter((c) => c.killed)
        .map((c) => (
          <path
            key={`k-${c.step}-${c.worker}`}
            className="tl-mark tl-shape-cross"
            d={symbolPath('cross', c.r)}
            transform={`translate(${px(c.x)},${px(c.y)})`}
          />
        ))}
      {marks.map((mark) => (
        <MarkSymbol key={mark.step} mark={mark} />
      ))}
      {marks.map((mark) => (mark.label ? <MarkText key={`l-${mark.step}`} className="tl-label tl-halo" x={mark.x} text={mark.label} /> : null))}
      {marks.map((mark) => (mark.sublabel ? <MarkText key={`s-${mark.step}`} className="tl-sublabel tl-halo" x={mark.x} text={mark.sublabel} /> : null))}
    </g>
  );
});

const MarkSymbol = memo(function MarkSymbol({ mark }: { mark: TimelineMark }) {
  return <path className={markClass(mark)} data-step={mark.step} d={symbolPath(mark.shape, mark.r)} transform={`translate(${px(mark.x)},${px(mark.y)})`} />;
});

const MarkText = memo(function MarkText({ className, x, text }: { className: string; x: number; text: { y: number; text: string } }) {
  return (
    <text className={className} x={px(x)} y={px(text.y)} textAnchor="middle">
      {text.text}
    </text>
  );
});
