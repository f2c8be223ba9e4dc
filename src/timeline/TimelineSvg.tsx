/**
 * Draws a TimelineLayout as SVG. Presentational only: no state, no effects, so it also renders on the
 * server (the preview harness and snapshot tests use renderToStaticMarkup). Each layer, and each mark,
 * bar and tick in it, is memoised on the parts of the layout it draws: with Timeline's steady layout
 * (steady.ts) a step redraws what it added or moved, and moving the selection or the hover redraws
 * only the overlay and the two step numbers concerned.
 */
import { memo, type Ref, type SVGProps } from 'react';
import { clockLabel } from '../sim/clock';
import type { AnomalyKind } from '../sim/types';
import { EXPIRY_HEAD_HALF_WIDTH, type LegendKey, type TimelineLayout, type TimelineLink, type TimelineMark } from './layout';
import type { LeaseState } from './model';
import { symbolPath, TIMELINE_CSS } from './theme';

export interface TimelineSvgProps extends Omit<SVGProps<SVGSVGElement>, 'ref'> {
  layout: TimelineLayout;
  selected: number | null;
  hovered: number | null;
  /** Prefix for ids inside the svg (patterns, clip paths), unique per timeline on the page. */
  uid: string;
  ariaLabel: string;
  /** Slides everything drawn along x by this many px (a drag in progress; see LayoutOptions.overscan). */
  shiftX?: number;
  ref?: Ref<SVGSVGElement>;
}

/** One decimal is plenty for pixels, and keeps the markup short. */
function f(n: number): number {
  return Math.round(n * 10) / 10;
}

export function TimelineSvg({ layout, selected, hovered, uid, ariaLabel, shiftX = 0, ref, ...rest }: TimelineSvgProps) {
  const { width, height, plot } = layout;
  const clip = `${uid}-plot`;
  const shift = shiftX !== 0 ? `translate(${f(shiftX)},0)` : undefined;
  return (
    <svg
      ref={ref}
      xmlns="http://www.w3.org/2000/svg"
      className="tl-svg"
      role="img"
      aria-label={ariaLabel}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      {...rest}
    >
      <style>{TIMELINE_CSS}</style>
      <Defs uid={uid} plot={plot} height={height} />
      <rect className="tl-bg" x={0} y={0} width={width} height={height} />
      <Lanes lanes={layout.lanes} width={width} plotLeft={plot.left} />
      <g clipPath={`url(#${clip})`}>
        <g transform={shift}>
          <Overlay layout={layout} selected={selected} hovered={hovered} />
          <Background breaks={layout.breaks} lanes={layout.lanes} spans={layout.spans} top={plot.top} bottom={layout.anomalyBand?.bottom ?? plot.bottom} />
          <Links links={layout.links} />
          <Bars bars={layout.bars} uid={uid} />
          <Marks marks={layout.marks} crashes={layout.crashes} />
          <Selection layout={layout} selected={selected} />
          <LinkLabels links={layout.links} />
          <Ticks timeTicks={layout.timeTicks} stepTicks={layout.stepTicks} axes={layout.axes} selected={selected} />
        </g>
      </g>
      <AxisNames layout={layout} />
      <Legend legend={layout.legend} uid={uid} />
    </svg>
  );
}

const Defs = memo(function Defs({ uid, plot, height }: { uid: string; plot: TimelineLayout['plot']; height: number }) {
  return (
    <defs>
      <clipPath id={`${uid}-plot`}>
        <rect x={plot.left} y={0} width={plot.right - plot.left} height={height} />
      </clipPath>
      <pattern id={`${uid}-hatch`} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
        <rect className="tl-lease-stale" x={0} y={0} width={6} height={6} />
        <line className="tl-hatch-line" x1={3} y1={0} x2={3} y2={6} />
      </pattern>
    </defs>
  );
});

const Lanes = memo(function Lanes({ lanes, width, plotLeft }: { lanes: TimelineLayout['lanes']; width: number; plotLeft: number }) {
  return (
    <g>
      {lanes.map((lane, i) => (
        <g key={lane.id}>
          {lane.kind === 'system' ? (
            <rect className="tl-lane-system" x={0} y={lane.top} width={width} height={lane.height} />
          ) : i % 2 === 0 ? (
            <rect className="tl-lane-alt" x={0} y={lane.top} width={width} height={lane.height} />
          ) : null}
          {lane.id === 'rescuer' ? (
            <text className="tl-lane-small" x={8} y={lane.markY + 3}>
              rescuer
            </text>
          ) : lane.kind === 'system' ? (
            <text className="tl-lane-small" x={8} y={lane.markY - 2}>
              <tspan x={8}>clock &amp;</tspan>
              <tspan x={8} dy={11}>
                operator
              </tspan>
            </text>
          ) : (
            <text className="tl-lane-name" x={plotLeft / 2 - 8} y={lane.markY + 5} textAnchor="middle">
              {lane.label}
            </text>
          )}
        </g>
      ))}
    </g>
  );
});

interface BackgroundProps {
  breaks: TimelineLayout['breaks'];
  lanes: TimelineLayout['lanes'];
  spans: TimelineLayout['spans'];
  top: number;
  bottom: number;
}

const Background = memo(function Background({ breaks, lanes, spans, top, bottom }: BackgroundProps) {
  return (
    <g>
      {breaks.map((b) => (
        <line key={b.step} className="tl-break" x1={f(b.x)} x2={f(b.x)} y1={top - 4} y2={bottom} />
      ))}
      {lanes.map((lane) =>
        lane.line ? <line key={lane.id} className="tl-lifeline" x1={f(lane.line.x0)} x2={f(lane.line.x1)} y1={lane.markY} y2={lane.markY} /> : null,
      )}
      {spans.map((span) => (
        <Span key={`${span.kind}-${span.fromStep}`} span={span} />
      ))}
    </g>
  );
});

const Span = memo(function Span({ span }: { span: TimelineLayout['spans'][number] }) {
  return (
    <g>
      <rect
        className={span.kind === 'pause' ? 'tl-pause' : span.kind === 'hung' ? 'tl-hung' : 'tl-wait'}
        x={f(span.x0)}
        y={f(span.y)}
        width={f(Math.max(1, span.x1 - span.x0))}
        height={span.height}
        rx={span.height / 2}
      >
        {span.kind === 'hung' ? <title>{`${span.lane}'s model call hangs: it never returns, while heartbeats keep the lease alive`}</title> : null}
      </rect>
      {span.text ? (
        <text className="tl-span-text" x={f(span.textX)} y={f(span.y + span.height / 2 + 3.5)}>
          {span.text}
        </text>
      ) : null}
    </g>
  );
});

const SEGMENT_CLASS: Record<LeaseState, string> = {
  valid: 'tl-lease',
  expired: 'tl-lease-hatched',
  superseded: 'tl-lease-hatched',
  orphan: 'tl-lease-orphan',
  'orphan-expired': 'tl-lease-orphan',
  'rolled-back': 'tl-lease-rolled-back',
};

const Bars = memo(function Bars({ bars, uid }: { bars: TimelineLayout['bars']; uid: string }) {
  return (
    <g>
      {bars.map((bar) => (
        <Bar key={`${bar.worker}-${bar.runId}-${bar.generation}`} bar={bar} uid={uid} />
      ))}
    </g>
  );
});

const Bar = memo(function Bar({ bar, uid }: { bar: TimelineLayout['bars'][number]; uid: string }) {
  const { x0, y, height: h } = bar;
  // The solid outline covers what the worker believed; an orphaned tail gets a dashed one.
  const orphanAt = bar.segments.find((s) => s.state === 'orphan' || s.state === 'orphan-expired')?.x0;
  const x1 = orphanAt ?? bar.x1;
  const open = bar.open && orphanAt === undefined;
  const edge = open ? `M${f(x1)},${f(y)}H${f(x0)}V${f(y + h)}H${f(x1)}` : `M${f(x0)},${f(y)}H${f(x1)}V${f(y + h)}H${f(x0)}Z`;
  const rolledBack = bar.segments.some((s) => s.state === 'rolled-back');
  return (
    <g>
      {bar.segments.map((s) => (
        <rect
          key={`${s.state}-${s.x0}`}
          className={SEGMENT_CLASS[s.state]}
          style={SEGMENT_CLASS[s.state] === 'tl-lease-hatched' ? { fill: `url(#${uid}-hatch)` } : undefined}
          x={f(s.x0)}
          y={f(y)}
          width={f(Math.max(0, s.x1 - s.x0))}
          height={h}
        />
      ))}
      {/* The lease's time still to come: lighter, up to the row's lease_expires_at. */}
      {bar.x1 > bar.presentX + 0.5 && orphanAt === undefined ? (
        <rect className="tl-lease-ahead" x={f(bar.presentX)} y={f(y)} width={f(bar.x1 - bar.presentX)} height={h}>
          {bar.expiresAt !== null ? <title>{`lease_expires_at ${clockLabel(bar.expiresAt)}`}</title> : null}
        </rect>
      ) : null}
      {x1 > x0 ? <path className={rolledBack ? 'tl-lease-edge tl-lease-edge-rolled-back' : 'tl-lease-edge'} d={edge} /> : null}
      {bar.expiresAt !== null && open ? <line className="tl-lease-end" x1={f(bar.x1)} x2={f(bar.x1)} y1={f(y)} y2={f(y + h)} /> : null}
      {bar.renewals.map((renewal) => (
        <g key={`r-${renewal.step}`} className="tl-renewal">
          <title>{`step ${renewal.step + 1}: the heartbeat moved lease_expires_at from ${clockLabel(renewal.fromSeconds)} to ${clockLabel(renewal.toSeconds)}`}</title>
          <line className="tl-renewed-from" x1={f(renewal.fromX)} x2={f(renewal.fromX)} y1={f(y + 1)} y2={f(y + h - 1)} />
          <path className="tl-renewal-mark" d={`M${f(renewal.x - 3.5)},${f(y + h + 4)}L${f(renewal.x)},${f(y + h)}L${f(renewal.x + 3.5)},${f(y + h + 4)}Z`} />
        </g>
      ))}
      {bar.segments.map((s) =>
        s.text ? (
          <text key={`t-${s.state}-${s.x0}`} className={`tl-bar-text${s.state === 'valid' ? '' : ' tl-halo'}`} x={f(s.textX)} y={f(y + h / 2 + 3.5)}>
            {s.text}
          </text>
        ) : null,
      )}
      {bar.expiries.map((e) => (
        <g key={`e-${e.seconds}-${e.x}`}>
          <line className="tl-expiry" x1={f(e.x)} x2={f(e.x)} y1={f(y - 2)} y2={f(y + h + 4)} />
          <path className="tl-expiry-head" d={`M${f(e.x - EXPIRY_HEAD_HALF_WIDTH)},${f(y - 7)}H${f(e.x + EXPIRY_HEAD_HALF_WIDTH)}L${f(e.x)},${f(y - 1)}Z`} />
        </g>
      ))}
    </g>
  );
});

/** How many earlier links pass through each step: nested rings stay visible when anomalies share a step. */
function ringDepths(links: readonly TimelineLink[]): Map<TimelineLink, number[]> {
  const seen = new Map<number, number>();
  const out = new Map<TimelineLink, number[]>();
  for (const link of links) {
    out.set(
      link,
      link.stops.map((stop) => {
        const depth = seen.get(stop.step) ?? 0;
        seen.set(stop.step, depth + 1);
        return depth;
      }),
    );
  }
  return out;
}

const Links = memo(function Links({ links }: { links: TimelineLayout['links'] }) {
  const depths = ringDepths(links);
  return (
    <g>
      {links.map((link) => {
        const cls = `tl-a-${link.kind}`;
        const offset = (link.row - (links.length - 1) / 2) * 2;
        return (
          <g key={`${link.kind}-${link.runId}-${link.steps[0]}`}>
            {link.stops.map((stop) => (
              <line key={`c-${stop.step}`} className={`${cls} tl-connector`} x1={f(stop.x + offset)} x2={f(stop.x + offset)} y1={f(stop.y)} y2={f(link.y)} />
            ))}
            {link.stops.map((stop, i) => (
              <circle
                key={`r-${stop.step}`}
                className={`${cls} tl-ring`}
                cx={f(stop.x)}
                cy={f(stop.markY)}
                r={f(stop.r + 4 + 3 * (depths.get(link)?.[i] ?? 0))}
              />
            ))}
            <line className={`${cls} tl-bracket`} x1={f(link.x0)} x2={f(Math.max(link.x1, link.x0 + 1))} y1={f(link.y)} y2={f(link.y)} />
            {link.stops.map((stop) => (
              <circle key={`s-${stop.step}`} className={`${cls} tl-stop`} cx={f(stop.x + offset)} cy={f(link.y)} r={3.5} />
            ))}
          </g>
        );
      })}
    </g>
  );
});

const LinkLabels = memo(function LinkLabels({ links }: { links: TimelineLayout['links'] }) {
  return (
    <g>
      {links.map((link) => {
        const w = link.labelWidth + 8;
        const x = link.labelAnchor === 'start' ? link.labelX - 4 : link.labelAnchor === 'end' ? link.labelX - w + 4 : link.labelX - w / 2;
        return (
          <g key={`${link.kind}-${link.runId}-${link.steps[0]}`}>
            <rect className="tl-plate" x={f(x)} y={f(link.y - 8)} width={f(w)} height={16} rx={3} />
            <text className="tl-link-label" x={f(link.labelX)} y={f(link.y + 4)} textAnchor={link.labelAnchor}>
              {link.label}
            </text>
          </g>
        );
      })}
    </g>
  );
});

function markClass(mark: TimelineMark): string {
  return `tl-mark tl-v-${mark.verdict}${mark.shape === 'cross' ? ' tl-shape-cross' : ''}`;
}

// The symbols first, then every label above them, then every sublabel: a label is never hidden under a neighbour's mark.
const Marks = memo(function Marks({ marks, crashes }: { marks: TimelineLayout['marks']; crashes: TimelineLayout['crashes'] }) {
  return (
    <g>
      {crashes
        .filter((c) => c.killed)
        .map((c) => (
          <path key={`k-${c.step}-${c.worker}`} className="tl-mark tl-shape-cross" d={symbolPath('cross', c.r)} transform={`translate(${f(c.x)},${f(c.y)})`} />
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
  return <path className={markClass(mark)} data-step={mark.step} d={symbolPath(mark.shape, mark.r)} transform={`translate(${f(mark.x)},${f(mark.y)})`} />;
});

const MarkText = memo(function MarkText({ className, x, text }: { className: string; x: number; text: { y: number; text: string } }) {
  return (
    <text className={className} x={f(x)} y={f(text.y)} textAnchor="middle">
      {text.text}
    </text>
  );
});

function column(layout: TimelineLayout, step: number | null): { x: number; w: number } | null {
  if (step === null) return null;
  const mark = layout.marks.find((m) => m.step === step);
  if (!mark) return null;
  const w = Math.max(6, Math.min(layout.slot, 60));
  return { x: mark.x - w / 2, w };
}

function Overlay({ layout, selected, hovered }: { layout: TimelineLayout; selected: number | null; hovered: number | null }) {
  const top = layout.plot.top;
  const bottom = layout.anomalyBand?.bottom ?? layout.plot.bottom;
  const sel = column(layout, selected);
  const hov = hovered !== selected ? column(layout, hovered) : null;
  return (
    <g>
      {hov ? <rect className="tl-hover" x={f(hov.x)} y={top} width={f(hov.w)} height={bottom - top} /> : null}
      {sel ? <rect className="tl-select" x={f(sel.x)} y={top} width={f(sel.w)} height={bottom - top} /> : null}
    </g>
  );
}

function Selection({ layout, selected }: { layout: TimelineLayout; selected: number | null }) {
  const mark = selected === null ? undefined : layout.marks.find((m) => m.step === selected);
  if (!mark) return null;
  return <circle className="tl-ring-selected" cx={f(mark.x)} cy={f(mark.y)} r={mark.r + 4} />;
}

interface TicksProps {
  timeTicks: TimelineLayout['timeTicks'];
  stepTicks: TimelineLayout['stepTicks'];
  axes: TimelineLayout['axes'];
  selected: number | null;
}

function Ticks({ timeTicks, stepTicks, axes, selected }: TicksProps) {
  return (
    <g>
      <TimeTicks ticks={timeTicks} y={axes.timeY} />
      {stepTicks.map((t) => (
        <StepTick key={`s-${t.step}`} tick={t} y={axes.stepY} selected={t.step === selected} />
      ))}
    </g>
  );
}

const TimeTicks = memo(function TimeTicks({ ticks, y }: { ticks: TimelineLayout['timeTicks']; y: number }) {
  return ticks.map((t) => (
    <text key={`t-${t.step}-${t.sticky ? 's' : ''}`} className={`tl-tick${t.sticky ? ' tl-tick-sticky' : ''}`} x={f(t.x)} y={y} textAnchor={t.anchor}>
      {t.label}
    </text>
  ));
});

const StepTick = memo(function StepTick({ tick, y, selected }: { tick: TimelineLayout['stepTicks'][number]; y: number; selected: boolean }) {
  return (
    <text className={`tl-step-tick${selected ? ' tl-step-tick-selected' : ''}`} x={f(tick.x)} y={y} textAnchor="middle">
      {tick.label}
    </text>
  );
});

/** Names in the left gutter for the rows that are not lanes. */
function AxisNames({ layout }: { layout: TimelineLayout }) {
  return (
    <g>
      {layout.position > 0 ? (
        <text className="tl-lane-small" x={8} y={layout.axes.stepY}>
          step
        </text>
      ) : null}
      {layout.anomalyBand ? (
        <text className="tl-band-label" x={8} y={layout.anomalyBand.top + 16}>
          anomalies
        </text>
      ) : null}
      {layout.anomalyBand && layout.links.length === 0 && layout.position > 0 ? (
        <text className="tl-band-label" x={layout.plot.left + 4} y={layout.anomalyBand.top + 16}>
          none detected
        </text>
      ) : null}
    </g>
  );
}

const Legend = memo(function Legend({ legend, uid }: { legend: TimelineLayout['legend']; uid: string }) {
  return (
    <g>
      {legend.map((item) => (
        <g key={item.key} transform={`translate(${f(item.x)},${f(item.y)})`}>
          <LegendSwatch swatch={item.key} uid={uid} />
          <text className="tl-legend-text" x={27} y={4}>
            {item.label}
          </text>
        </g>
      ))}
    </g>
  );
});

const LEGEND_ANOMALY: AnomalyKind = 'duplicate-execution';

function LegendSwatch({ swatch, uid }: { swatch: LegendKey; uid: string }) {
  const cx = 11;
  if (swatch.startsWith('verdict-')) {
    const verdict = swatch.slice('verdict-'.length) as TimelineMark['verdict'];
    const shape = ({ ok: 'circle', empty: 'ring', rejected: 'no-entry', error: 'triangle', blocked: 'hourglass', event: 'diamond' } as const)[verdict];
    return <path className={`tl-mark tl-v-${verdict}`} d={symbolPath(shape, 6)} transform={`translate(${cx},0)`} />;
  }
  switch (swatch) {
    case 'lease':
      return (
        <g>
          <rect className="tl-lease" x={0} y={-6} width={22} height={12} />
          <rect className="tl-lease-edge" x={0} y={-6} width={22} height={12} />
        </g>
      );
    case 'lease-stale':
      return <rect className="tl-lease-hatched" style={{ fill: `url(#${uid}-hatch)` }} x={0} y={-6} width={22} height={12} />;
    case 'lease-orphan':
      return <rect className="tl-lease-orphan" x={0} y={-6} width={22} height={12} />;
    case 'expiry':
      return (
        <g>
          <line className="tl-expiry" x1={cx} x2={cx} y1={-3} y2={8} />
          <path className="tl-expiry-head" d={`M${cx - 4.5},-8H${cx + 4.5}L${cx},-2Z`} />
        </g>
      );
    case 'renewal':
      return (
        <g>
          <rect className="tl-lease" x={0} y={-6} width={22} height={10} />
          <line className="tl-renewed-from" x1={10} x2={10} y1={-5} y2={3} />
          <path className="tl-renewal-mark" d="M0.5,8L4,4L7.5,8Z" />
        </g>
      );
    case 'hung':
      return <rect className="tl-hung" x={0} y={-3} width={22} height={6} rx={3} />;
    case 'pause':
      return <rect className="tl-pause" x={0} y={-6} width={22} height={12} rx={6} />;
    case 'crash':
      return <path className="tl-mark tl-shape-cross" d={symbolPath('cross', 6)} transform={`translate(${cx},0)`} />;
    case 'clock-break':
      return <line className="tl-break" x1={cx} x2={cx} y1={-8} y2={8} />;
    case 'anomaly':
      return (
        <g>
          <line className={`tl-a-${LEGEND_ANOMALY} tl-bracket`} x1={2} x2={20} y1={2} y2={2} />
          <circle className={`tl-a-${LEGEND_ANOMALY} tl-stop`} cx={2.5} cy={2} r={3} />
          <circle className={`tl-a-${LEGEND_ANOMALY} tl-stop`} cx={19.5} cy={2} r={3} />
        </g>
      );
    default:
      return null;
  }
}
