/**
 * The clock layer: a gap and a dashed rule wherever the virtual clock moves, the time on the axis above the
 * lanes (repeated at the left edge once its own tick has scrolled away), and the step numbers below them.
 */
import { bisector } from 'd3';
import { memo } from 'react';
import { clockLabel, durationLabel } from '../../sim/clock';
import type { ClockBreak, TraceModel } from '../model';
import { FONT, textWidth } from '../text-width';
import { px } from '../theme';
import type { Frame } from './frame';

export interface TimelineTick {
  x: number;
  label: string;
  anchor: 'start' | 'middle';
  /** A time shown at the left edge because its own tick scrolled out of view. */
  sticky?: boolean;
  step: number;
}

export interface TimelineBreak {
  step: number;
  x: number;
  fromSeconds: number;
  toSeconds: number;
  /** "+51 s". */
  label: string;
}

const byU = bisector((b: ClockBreak) => b.u);

/** The clock breaks between slot coordinates u0 and u1, found by bisection: panning a long trace stays cheap. */
function breaksIn(model: TraceModel, u0: number, u1: number): ClockBreak[] {
  return model.breaks.slice(byU.left(model.breaks, u0), byU.right(model.breaks, u1));
}

export function layoutBreaks(frame: Frame): TimelineBreak[] {
  const breaks: TimelineBreak[] = [];
  for (const b of breaksIn(frame.model, frame.c0, frame.c1)) {
    if (b.step >= frame.position) break;
    breaks.push({
      step: b.step,
      x: frame.sx(b.u),
      fromSeconds: b.fromSeconds,
      toSeconds: b.toSeconds,
      label: `+${durationLabel(b.toSeconds - b.fromSeconds)}`,
    });
  }
  return breaks;
}

/** The times above the lanes and the step numbers below them. Ticks half out of the plot are dropped, except while overscanning (the drawing slides under a clip). */
export function layoutTicks(frame: Frame): { timeTicks: TimelineTick[]; stepTicks: TimelineTick[] } {
  const bounds = frame.overscan > 0 ? frame.cull : frame.plot;
  return {
    timeTicks: clockTicks(frame, bounds),
    stepTicks: stepNumberTicks(frame).filter((t) => t.x - 8 >= bounds.left && t.x + 8 <= bounds.right),
  };
}

function clockTicks(frame: Frame, at: { left: number; right: number }): TimelineTick[] {
  const { steps, model, position, sx, slot } = frame;
  if (position === 0) return [];
  const width = textWidth('15:00:00', FONT.label);
  const candidates: TimelineTick[] = [{ x: sx(model.u[0]!) - Math.min(slot, 40) / 2, label: clockLabel(steps[0]!.clockSeconds), anchor: 'start', step: 0 }];
  for (const b of breaksIn(model, frame.c0 - width / slot, frame.c1)) {
    if (b.step >= position) break;
    candidates.push({ x: sx(b.u) + 3, label: clockLabel(b.toSeconds), anchor: 'start', step: b.step });
  }
  const visible = candidates.filter((t) => t.x + width >= at.left && t.x <= at.right - width);
  const ticks: TimelineTick[] = [];
  // When the tick naming the time at the left edge has scrolled away, repeat that time at the edge.
  const firstVisible = visible[0];
  if (frame.overscan === 0 && (!firstVisible || firstVisible.x > at.left + width + 6)) {
    const step = steps[Math.min(frame.first, position - 1)]!;
    ticks.push({ x: at.left + 2, label: clockLabel(step.clockSeconds), anchor: 'start', sticky: true, step: step.index });
  }
  for (const tick of visible) {
    const previous = ticks.at(-1);
    if (previous && tick.x < previous.x + width + 6) continue;
    ticks.push({ ...tick, x: Math.max(tick.x, at.left) });
  }
  return ticks;
}

function stepNumberTicks(frame: Frame): TimelineTick[] {
  const { first, end, xOf, slot } = frame;
  const widest = textWidth(String(end), FONT.sublabel) + 8;
  const every = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find((k) => k * slot >= widest) ?? 1000;
  const ticks: TimelineTick[] = [];
  for (let i = first; i < end; i++) {
    if ((i + 1) % every === 0 || (every > 1 && i === 0)) ticks.push({ x: xOf(i), label: String(i + 1), anchor: 'middle', step: i });
  }
  return ticks;
}

/** The dashed rules where the clock moves, from the time axis down to the bottom of the anomaly band. */
export const Breaks = memo(function Breaks({ breaks, top, bottom }: { breaks: readonly TimelineBreak[]; top: number; bottom: number }) {
  return (
    <g>
      {breaks.map((b) => (
        <line key={b.step} className="tl-break" x1={px(b.x)} x2={px(b.x)} y1={top - 4} y2={bottom} />
      ))}
    </g>
  );
});

interface TicksProps {
  timeTicks: readonly TimelineTick[];
  stepTicks: readonly TimelineTick[];
  axes: { timeY: number; stepY: number };
  selected: number | null;
}

export function Ticks({ timeTicks, stepTicks, axes, selected }: TicksProps) {
  return (
    <g>
      <TimeTicks ticks={timeTicks} y={axes.timeY} />
      {stepTicks.map((t) => (
        <StepTick key={`s-${t.step}`} tick={t} y={axes.stepY} selected={t.step === selected} />
      ))}
    </g>
  );
}

const TimeTicks = memo(function TimeTicks({ ticks, y }: { ticks: readonly TimelineTick[]; y: number }) {
  return ticks.map((t) => (
    <text key={`t-${t.step}-${t.sticky ? 's' : ''}`} className={`tl-tick${t.sticky ? ' tl-tick-sticky' : ''}`} x={px(t.x)} y={y} textAnchor={t.anchor}>
      {t.label}
    </text>
  ));
});

const StepTick = memo(function StepTick({ tick, y, selected }: { tick: TimelineTick; y: number; selected: boolean }) {
  return (
    <text className={`tl-step-tick${selected ? ' tl-step-tick-selected' : ''}`} x={px(tick.x)} y={y} textAnchor="middle">
      {tick.label}
    </text>
  );
});
