/**
 * Draws a TimelineLayout as SVG. Presentational only: no state, no effects, so it also renders on the
 * server (the preview harness and snapshot tests use renderToStaticMarkup). Each layer, and each mark,
 * bar and tick in it, is memoised on the parts of the layout it draws: with Timeline's steady layout
 * (steady.ts) a step redraws what it added or moved, and moving the selection or the hover redraws
 * only the overlay and the two step numbers concerned.
 */
import { memo, type Ref, type SVGProps } from 'react';
import { LinkLabels, Links } from './layers/anomalies';
import { Breaks, Ticks } from './layers/clock';
import { Bars } from './layers/leases';
import { TimelineLegend } from './layers/legend';
import { LifeLines, Marks } from './layers/marks';
import { Spans } from './layers/spans';
import type { TimelineLayout } from './layout';
import { px as f, TIMELINE_CSS } from './theme';

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
          <Breaks breaks={layout.breaks} top={plot.top} bottom={layout.anomalyBand?.bottom ?? plot.bottom} />
          <LifeLines lanes={layout.lanes} />
          <Spans spans={layout.spans} />
          <Links links={layout.links} />
          <Bars bars={layout.bars} uid={uid} />
          <Marks marks={layout.marks} crashes={layout.crashes} />
          <Selection layout={layout} selected={selected} />
          <LinkLabels links={layout.links} />
          <Ticks timeTicks={layout.timeTicks} stepTicks={layout.stepTicks} axes={layout.axes} selected={selected} />
        </g>
      </g>
      <AxisNames layout={layout} />
      <TimelineLegend legend={layout.legend} uid={uid} />
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
