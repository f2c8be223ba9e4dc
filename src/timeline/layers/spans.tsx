/**
 * The spans layer: stretches of time a worker spent not stepping on its own: paused, waiting for a row lock
 * (naming who holds it), or inside a model call that hangs.
 */
import { memo } from 'react';
import { durationLabel } from '../../sim/clock';
import { FONT, wordsThatFit } from '../text-width';
import { px } from '../theme';
import type { Frame } from './frame';
import { LEASE_HEIGHT } from './leases';

/** A hung model call's band, under the lease bar. */
const HUNG_HEIGHT = 6;

export interface TimelineSpan {
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

export function layoutSpans(frame: Frame): TimelineSpan[] {
  const { steps, position, xOf, slot, r, plot } = frame;
  const spans: TimelineSpan[] = [];
  for (const span of frame.model.spans) {
    if (span.start >= position) continue;
    const lane = frame.laneOf(span.lane);
    if (!lane) continue;
    const closed = span.end !== null && span.end < position;
    const x0 = xOf(span.start);
    const x1 = closed ? xOf(span.end!) : xOf(position - 1) + slot * 0.45;
    if (!frame.inView(x0, x1)) continue;
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
    const textX = Math.max(x0, plot.left) + r + 6;
    const room = Math.min(x1, plot.right) - r - 6 - textX;
    spans.push({
      kind: span.kind,
      lane: lane.id,
      fromStep: span.start,
      toStep: closed ? span.end : null,
      x0,
      x1,
      y: hung ? lane.leaseY + LEASE_HEIGHT + 3 : lane.markY - height / 2,
      height,
      text: wordsThatFit(words, room, FONT.bar),
      textX,
    });
  }
  return spans;
}

export const Spans = memo(function Spans({ spans }: { spans: readonly TimelineSpan[] }) {
  return (
    <g>
      {spans.map((span) => (
        <Span key={`${span.kind}-${span.fromStep}`} span={span} />
      ))}
    </g>
  );
});

const Span = memo(function Span({ span }: { span: TimelineSpan }) {
  return (
    <g>
      <rect
        className={span.kind === 'pause' ? 'tl-pause' : span.kind === 'hung' ? 'tl-hung' : 'tl-wait'}
        x={px(span.x0)}
        y={px(span.y)}
        width={px(Math.max(1, span.x1 - span.x0))}
        height={span.height}
        rx={span.height / 2}
      >
        {span.kind === 'hung' ? <title>{`${span.lane}'s model call hangs: it never returns, while heartbeats keep the lease alive`}</title> : null}
      </rect>
      {span.text ? (
        <text className="tl-span-text" x={px(span.textX)} y={px(span.y + span.height / 2 + 3.5)}>
          {span.text}
        </text>
      ) : null}
    </g>
  );
});
