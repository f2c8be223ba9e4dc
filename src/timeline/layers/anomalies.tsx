/**
 * The anomalies layer: a band under the lanes with one bracket row per anomaly the checkers found, joined
 * by connectors and rings to the marks of the steps that make it, and labelled with its name and run.
 */
import { memo } from 'react';
import { byFirstStep } from '../../sim/anomalies';
import type { AnomalyKind, Trace } from '../../sim/types';
import { ANOMALY_NAMES } from '../describe';
import { anomaliesAt, traceModel } from '../model';
import { FONT, textWidth } from '../text-width';
import { px } from '../theme';
import type { Frame } from './frame';
import type { TimelineMark } from './marks';

const ANOMALY_ROW_HEIGHT = 20;
const ANOMALY_BAND_PAD = 6;
/** More anomalies than this share the last row. */
const MAX_ROWS = 4;

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

/** How many bracket rows the band has at this position: room for every anomaly the trace will show, up to MAX_ROWS. */
export function anomalyRows(trace: Trace, position: number): number {
  const model = traceModel(trace);
  const shown = anomaliesAt(trace, position).length;
  return Math.max(model.anomalyRows, Math.min(shown, MAX_ROWS));
}

/** The band's height for that many rows (none: no band). */
export function anomalyBandHeight(rows: number): number {
  return rows > 0 ? rows * ANOMALY_ROW_HEIGHT + 2 * ANOMALY_BAND_PAD : 0;
}

/**
 * One bracket row each, under the lanes, in the order the anomalies began, which a new step never changes
 * (in the checkers' order, by latest step, two rows swapped places on every step of the race).
 */
export function layoutAnomalies(
  frame: Frame,
  trace: Trace,
  marks: readonly TimelineMark[],
  band: { top: number; bottom: number } | null,
  rows: number,
): TimelineLink[] {
  const { steps, position, xOf, r, systemR, plot } = frame;
  const anomalies = [...anomaliesAt(trace, position)].sort(byFirstStep);
  const links: TimelineLink[] = [];
  const markByStep = new Map(marks.map((m) => [m.step, m]));
  anomalies.forEach((anomaly, i) => {
    const shown = anomaly.steps.filter((s) => s < position).sort((a, b) => a - b);
    if (shown.length === 0 || !band) return;
    const row = Math.min(i, rows - 1);
    const y = band.top + ANOMALY_BAND_PAD + row * ANOMALY_ROW_HEIGHT + ANOMALY_ROW_HEIGHT / 2;
    const stops = shown.map((s) => {
      const lane = frame.laneOf(steps[s]!.actor)!;
      const markR = lane.kind === 'system' ? systemR : r;
      // The connector starts under the mark's words, so it never strikes through them.
      const mark = markByStep.get(s);
      const below = mark?.sublabel?.y ?? (mark?.label && mark.label.y < lane.markY + markR + 20 ? mark.label.y : null);
      return { step: s, x: xOf(s), y: below !== null ? below + 4 : lane.markY + markR + 3, markY: lane.markY, r: markR };
    });
    const x0 = stops[0]!.x;
    const x1 = stops.at(-1)!.x;
    if (!frame.inView(x0, x1)) return;
    const name = ANOMALY_NAMES[anomaly.kind];
    const placed = placeLinkLabel([`${name} · run ${anomaly.runId}`, name], stops, plot);
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
  return links;
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
    const width = textWidth(text, FONT.label) * 1.2;
    if (x1 + 10 + width <= plot.right) return { text, x: x1 + 10, anchor: 'start', width };
    if (x0 - 10 - width >= plot.left) return { text, x: x0 - 10, anchor: 'end', width };
    if (gapAt >= 0 && widest >= width + 12) return { text, x: (xs[gapAt]! + xs[gapAt + 1]!) / 2, anchor: 'middle', width };
  }
  const text = texts.at(-1)!;
  const width = textWidth(text, FONT.label) * 1.2;
  return { text, x: Math.max(plot.left + 2, plot.right - width), anchor: 'start', width };
}

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

/** Brackets, connectors and rings: drawn under the marks. */
export const Links = memo(function Links({ links }: { links: readonly TimelineLink[] }) {
  const depths = ringDepths(links);
  return (
    <g>
      {links.map((link) => {
        const cls = `tl-a-${link.kind}`;
        const offset = (link.row - (links.length - 1) / 2) * 2;
        return (
          <g key={`${link.kind}-${link.runId}-${link.steps[0]}`}>
            {link.stops.map((stop) => (
              <line
                key={`c-${stop.step}`}
                className={`${cls} tl-connector`}
                x1={px(stop.x + offset)}
                x2={px(stop.x + offset)}
                y1={px(stop.y)}
                y2={px(link.y)}
              />
            ))}
            {link.stops.map((stop, i) => (
              <circle
                key={`r-${stop.step}`}
                className={`${cls} tl-ring`}
                cx={px(stop.x)}
                cy={px(stop.markY)}
                r={px(stop.r + 4 + 3 * (depths.get(link)?.[i] ?? 0))}
              />
            ))}
            <line className={`${cls} tl-bracket`} x1={px(link.x0)} x2={px(Math.max(link.x1, link.x0 + 1))} y1={px(link.y)} y2={px(link.y)} />
            {link.stops.map((stop) => (
              <circle key={`s-${stop.step}`} className={`${cls} tl-stop`} cx={px(stop.x + offset)} cy={px(link.y)} r={3.5} />
            ))}
          </g>
        );
      })}
    </g>
  );
});

/** The labels, on plates: drawn over the marks. */
export const LinkLabels = memo(function LinkLabels({ links }: { links: readonly TimelineLink[] }) {
  return (
    <g>
      {links.map((link) => {
        const w = link.labelWidth + 8;
        const x = link.labelAnchor === 'start' ? link.labelX - 4 : link.labelAnchor === 'end' ? link.labelX - w + 4 : link.labelX - w / 2;
        return (
          <g key={`${link.kind}-${link.runId}-${link.steps[0]}`}>
            <rect className="tl-plate" x={px(x)} y={px(link.y - 8)} width={px(w)} height={16} rx={3} />
            <text className="tl-link-label" x={px(link.labelX)} y={px(link.y + 4)} textAnchor={link.labelAnchor}>
              {link.label}
            </text>
          </g>
        );
      })}
    </g>
  );
});
