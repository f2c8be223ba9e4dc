/**
 * The leases layer: a bar for each lease a worker held, in its lane above the marks, coloured by what the
 * lease was at each moment (valid, expired but still believed, superseded, orphaned, rolled back), with the
 * lease's time still to come, where its expiry passed, and where a heartbeat moved it on.
 */
import { memo } from 'react';
import { clockLabel } from '../../sim/clock';
import { type LeaseState, PRESENT_EDGE_SLOTS, uAtSeconds } from '../model';
import { FONT, wordsThatFit } from '../text-width';
import { px } from '../theme';
import type { Frame } from './frame';

export const LEASE_HEIGHT = 15;
/** Half the width of the expiry marker's head (drawn 9 px wide, centred on the expiry). */
const EXPIRY_HEAD_HALF_WIDTH = 4.5;

interface LeaseSegment {
  x0: number;
  x1: number;
  state: LeaseState;
  /** Text drawn inside the segment, or null when it does not fit. */
  text: string | null;
  textX: number;
}

export interface TimelineBar {
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

export function layoutBars(frame: Frame): TimelineBar[] {
  const { model, position, sx, slot, plot } = frame;
  const bars: TimelineBar[] = [];
  for (const lease of model.leases) {
    if (lease.start >= position) continue;
    const lane = frame.laneOf(lease.worker);
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
    if (!frame.inView(x0, x1)) continue;
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
      const text = wordsThatFit(segmentWords(change.state, change.detail, lease, label), room, FONT.bar);
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
      return [`orphaned: ${lease.worker}'s process is gone, the row still holds the lease`, `orphaned: ${lease.worker}'s process is gone`, 'orphaned'];
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

/** A lease change drawn with an expiry marker: the clock passed lease_expires_at. */
function marksExpiry(change: { state: string; detail: number | null }): boolean {
  return (change.state === 'expired' || change.state === 'orphan-expired') && change.detail !== null;
}

const SEGMENT_CLASS: Record<LeaseState, string> = {
  valid: 'tl-lease',
  expired: 'tl-lease-hatched',
  superseded: 'tl-lease-hatched',
  orphan: 'tl-lease-orphan',
  'orphan-expired': 'tl-lease-orphan',
  'rolled-back': 'tl-lease-rolled-back',
};

export const Bars = memo(function Bars({ bars, uid }: { bars: readonly TimelineBar[]; uid: string }) {
  return (
    <g>
      {bars.map((bar) => (
        <Bar key={`${bar.worker}-${bar.runId}-${bar.generation}`} bar={bar} uid={uid} />
      ))}
    </g>
  );
});

const Bar = memo(function Bar({ bar, uid }: { bar: TimelineBar; uid: string }) {
  const { x0, y, height: h } = bar;
  // The solid outline covers what the worker believed; an orphaned tail gets a dashed one.
  const orphanAt = bar.segments.find((s) => s.state === 'orphan' || s.state === 'orphan-expired')?.x0;
  const x1 = orphanAt ?? bar.x1;
  const open = bar.open && orphanAt === undefined;
  const edge = open ? `M${px(x1)},${px(y)}H${px(x0)}V${px(y + h)}H${px(x1)}` : `M${px(x0)},${px(y)}H${px(x1)}V${px(y + h)}H${px(x0)}Z`;
  const rolledBack = bar.segments.some((s) => s.state === 'rolled-back');
  return (
    <g>
      {bar.segments.map((s) => (
        <rect
          key={`${s.state}-${s.x0}`}
          className={SEGMENT_CLASS[s.state]}
          style={SEGMENT_CLASS[s.state] === 'tl-lease-hatched' ? { fill: `url(#${uid}-hatch)` } : undefined}
          x={px(s.x0)}
          y={px(y)}
          width={px(Math.max(0, s.x1 - s.x0))}
          height={h}
        />
      ))}
      {/* The lease's time still to come: lighter, up to the row's lease_expires_at. */}
      {bar.x1 > bar.presentX + 0.5 && orphanAt === undefined ? (
        <rect className="tl-lease-ahead" x={px(bar.presentX)} y={px(y)} width={px(bar.x1 - bar.presentX)} height={h}>
          {bar.expiresAt !== null ? <title>{`lease_expires_at ${clockLabel(bar.expiresAt)}`}</title> : null}
        </rect>
      ) : null}
      {x1 > x0 ? <path className={rolledBack ? 'tl-lease-edge tl-lease-edge-rolled-back' : 'tl-lease-edge'} d={edge} /> : null}
      {bar.expiresAt !== null && open ? <line className="tl-lease-end" x1={px(bar.x1)} x2={px(bar.x1)} y1={px(y)} y2={px(y + h)} /> : null}
      {bar.renewals.map((renewal) => (
        <g key={`r-${renewal.step}`} className="tl-renewal">
          <title>{`step ${renewal.step + 1}: the heartbeat moved lease_expires_at from ${clockLabel(renewal.fromSeconds)} to ${clockLabel(renewal.toSeconds)}`}</title>
          <line className="tl-renewed-from" x1={px(renewal.fromX)} x2={px(renewal.fromX)} y1={px(y + 1)} y2={px(y + h - 1)} />
          <path
            className="tl-renewal-mark"
            d={`M${px(renewal.x - 3.5)},${px(y + h + 4)}L${px(renewal.x)},${px(y + h)}L${px(renewal.x + 3.5)},${px(y + h + 4)}Z`}
          />
        </g>
      ))}
      {bar.segments.map((s) =>
        s.text ? (
          <text key={`t-${s.state}-${s.x0}`} className={`tl-bar-text${s.state === 'valid' ? '' : ' tl-halo'}`} x={px(s.textX)} y={px(y + h / 2 + 3.5)}>
            {s.text}
          </text>
        ) : null,
      )}
      {bar.expiries.map((e) => (
        <g key={`e-${e.seconds}-${e.x}`}>
          <line className="tl-expiry" x1={px(e.x)} x2={px(e.x)} y1={px(y - 2)} y2={px(y + h + 4)} />
          <ExpiryHead x={e.x} y={y - 7} />
        </g>
      ))}
    </g>
  );
});

/** The expiry marker's head: a small triangle pointing down at the bar, its tip 6 px below `y`. */
export function ExpiryHead({ x, y }: { x: number; y: number }) {
  return <path className="tl-expiry-head" d={`M${px(x - EXPIRY_HEAD_HALF_WIDTH)},${px(y)}H${px(x + EXPIRY_HEAD_HALF_WIDTH)}L${px(x)},${px(y + 6)}Z`} />;
}
