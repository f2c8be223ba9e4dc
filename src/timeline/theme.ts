/**
 * Colours, mark shapes and the timeline's stylesheet. The palette is Okabe–Ito (distinguishable with
 * the common colour-vision deficiencies) and every verdict also has its own shape, so colour is never
 * the only cue.
 *
 * Themes: each colour is a CSS custom property `--tl-NAME` that the app may set on any ancestor; when it
 * does not, the light or dark default applies (prefers-color-scheme, or an ancestor with
 * data-theme="light" / data-theme="dark").
 */
import type { AnomalyKind } from '../sim/types';

/** The symbol a mark is drawn with: one per verdict, and a cross for a crash. */
export type MarkShape = 'circle' | 'ring' | 'no-entry' | 'triangle' | 'hourglass' | 'diamond' | 'cross';

/** One decimal is plenty for pixels, and keeps the markup short. */
export function px(n: number): number {
  return Math.round(n * 10) / 10;
}

/** [light, dark] default for each themable colour. */
const PALETTE = {
  bg: ['#ffffff', '#16191d'],
  ink: ['#1b1f24', '#e6e9ed'],
  muted: ['#5b6570', '#9aa4ae'],
  grid: ['#c9d0d7', '#3a414a'],
  'lane-alt': ['#f5f7f9', '#1d2126'],
  'lane-system': ['#eef1f4', '#22272d'],
  ok: ['#009E73', '#2fc596'],
  empty: ['#7b8794', '#8f9aa5'],
  rejected: ['#D55E00', '#ff7d3b'],
  error: ['#E69F00', '#f2b53d'],
  blocked: ['#0072B2', '#56B4E9'],
  event: ['#4b5563', '#b5bdc6'],
  crash: ['#1b1f24', '#f2f4f6'],
  lease: ['#d3eaf8', '#1d3a4f'],
  'lease-edge': ['#3b8fc4', '#56B4E9'],
  stale: ['#fbe4d6', '#3d2619'],
  'stale-stripe': ['#D55E00', '#ff7d3b'],
  expiry: ['#D55E00', '#ff7d3b'],
  pause: ['#e4e7eb', '#2c3238'],
  'pause-edge': ['#7b8794', '#8f9aa5'],
  wait: ['#dcecf7', '#1b3344'],
  'wait-edge': ['#0072B2', '#56B4E9'],
  select: ['#F0E442', '#8a7f12'],
  hover: ['#1b1f24', '#e6e9ed'],
  duplicate: ['#CC79A7', '#e59cc6'],
  split: ['#D55E00', '#ff7d3b'],
  fenced: ['#0072B2', '#56B4E9'],
  'lost-cancel': ['#E69F00', '#f2b53d'],
  stuck: ['#4b5563', '#b5bdc6'],
} as const;

export type PaletteName = keyof typeof PALETTE;

/** The CSS class (and colour name) of each anomaly kind; its dash pattern is a second cue. */
const ANOMALY_STYLE: Record<AnomalyKind, { color: PaletteName; dash: string | null }> = {
  // The duplicate's colour (a double claim is how a duplicate begins), dashed to tell them apart.
  'double-claim': { color: 'duplicate', dash: '4 2' },
  'duplicate-execution': { color: 'duplicate', dash: null },
  'split-ownership': { color: 'split', dash: null },
  'stale-write-rejected': { color: 'fenced', dash: '6 3' },
  // A stale write too, landed over a failure: split ownership's colour, dotted.
  'finalized-twice': { color: 'split', dash: '3 2' },
  'lost-cancel': { color: 'lost-cancel', dash: '2 3' },
  'stuck-while-heartbeating': { color: 'stuck', dash: '8 3 2 3' },
  'stranded-run': { color: 'lost-cancel', dash: '1 3' },
  // Two claims each sure the tenant had room: a double claim's colour (one run too many), dotted and dashed.
  'tenant-over-cap': { color: 'duplicate', dash: '6 2 1 2' },
};

function declarations(theme: 0 | 1): string {
  return Object.entries(PALETTE)
    .map(([name, values]) => `--_${name}: var(--tl-${name}, ${values[theme]});`)
    .join(' ');
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

/** The stylesheet inside the timeline's <svg>: everything it draws takes its look from here. */
export const TIMELINE_CSS = `
.tl-svg { ${declarations(0)} }
@media (prefers-color-scheme: dark) { .tl-svg { ${declarations(1)} } }
:is([data-theme="light"], .theme-light) .tl-svg { ${declarations(0)} }
:is([data-theme="dark"], .theme-dark) .tl-svg { ${declarations(1)} }
.tl-svg { font-family: ${FONT}; font-size: 11px; display: block; user-select: none; -webkit-user-select: none; }
.tl-bg { fill: var(--_bg); }
.tl-lane-alt { fill: var(--_lane-alt); }
.tl-lane-system { fill: var(--_lane-system); }
.tl-lifeline { stroke: var(--_grid); stroke-width: 1.5; }
.tl-text { fill: var(--_ink); }
.tl-muted { fill: var(--_muted); }
.tl-halo { paint-order: stroke; stroke: var(--_bg); stroke-width: 3px; stroke-linejoin: round; }
.tl-lane-name { font-size: 15px; font-weight: 700; fill: var(--_ink); }
.tl-lane-small { font-size: 9.5px; fill: var(--_muted); }
.tl-label { font-size: 11px; fill: var(--_ink); }
.tl-sublabel { font-size: 9.5px; fill: var(--_muted); }
.tl-tick { font-size: 11px; fill: var(--_muted); font-variant-numeric: tabular-nums; }
.tl-tick-sticky { font-style: italic; }
.tl-step-tick { font-size: 9.5px; fill: var(--_muted); font-variant-numeric: tabular-nums; }
.tl-step-tick-selected { fill: var(--_ink); font-weight: 700; }
.tl-break { stroke: var(--_grid); stroke-width: 1.5; stroke-dasharray: 4 3; }
.tl-mark { stroke: var(--_bg); stroke-width: 1; }
.tl-v-ok { fill: var(--_ok); }
.tl-v-empty { fill: var(--_bg); stroke: var(--_empty); stroke-width: 2; }
.tl-v-rejected { fill: var(--_rejected); fill-rule: evenodd; }
.tl-v-error { fill: var(--_error); stroke: var(--_ink); stroke-width: 0.75; }
.tl-v-blocked { fill: var(--_blocked); }
.tl-v-event { fill: var(--_event); }
.tl-shape-cross { fill: var(--_crash); }
.tl-lease { fill: var(--_lease); }
.tl-lease-stale { fill: var(--_stale); }
.tl-lease-edge { fill: none; stroke: var(--_lease-edge); stroke-width: 1; }
.tl-lease-hatched { stroke: var(--_stale-stripe); stroke-width: 0.75; }
.tl-lease-rolled-back { fill: var(--_bg); }
.tl-lease-edge-rolled-back { stroke-dasharray: 2 3; }
.tl-lease-orphan { fill: var(--_bg); fill-opacity: 0.6; stroke: var(--_lease-edge); stroke-width: 1.25; stroke-dasharray: 4 3; }
.tl-hatch-line { stroke: var(--_stale-stripe); stroke-width: 2; opacity: 0.5; }
.tl-bar-text { font-size: 10px; fill: var(--_ink); }
.tl-expiry { stroke: var(--_expiry); stroke-width: 2; }
.tl-expiry-head { fill: var(--_expiry); }
.tl-pause { fill: var(--_pause); stroke: var(--_pause-edge); stroke-width: 1; stroke-dasharray: 3 2; }
.tl-wait { fill: var(--_wait); stroke: var(--_wait-edge); stroke-width: 1; stroke-dasharray: 3 2; }
.tl-span-text { font-size: 10px; fill: var(--_ink); }
.tl-lease-ahead { fill: var(--_bg); fill-opacity: 0.5; }
.tl-lease-end { stroke: var(--_lease-edge); stroke-width: 2; }
.tl-renewed-from { stroke: var(--_lease-edge); stroke-width: 1; stroke-dasharray: 2 2; }
.tl-renewal-mark { fill: var(--_lease-edge); }
.tl-hung { fill: var(--_crash); fill-opacity: 0.35; stroke: var(--_crash); stroke-width: 1; stroke-dasharray: 3 2; }
.tl-select { fill: var(--_select); opacity: 0.32; }
.tl-hover { fill: var(--_hover); opacity: 0.06; }
.tl-ring-selected { fill: none; stroke: var(--_ink); stroke-width: 2; }
.tl-link-label { font-size: 11px; font-weight: 600; fill: var(--_ink); }
.tl-plate { fill: var(--_bg); opacity: 0.92; }
.tl-band-label { font-size: 9.5px; fill: var(--_muted); }
.tl-legend-text { font-size: 11px; fill: var(--_muted); }
${(Object.keys(ANOMALY_STYLE) as AnomalyKind[])
  .map((kind) => {
    const { color, dash } = ANOMALY_STYLE[kind];
    const dashed = dash ? ` stroke-dasharray: ${dash};` : '';
    return [
      `.tl-a-${kind} { stroke: var(--_${color}); fill: none; }`,
      `.tl-a-${kind}.tl-bracket { stroke-width: 2.5;${dashed} }`,
      `.tl-a-${kind}.tl-connector { stroke-width: 1.25; stroke-dasharray: 2 3; opacity: 0.85; }`,
      `.tl-a-${kind}.tl-ring { stroke-width: 2; }`,
      `.tl-a-${kind}.tl-stop { fill: var(--_${color}); stroke: var(--_bg); stroke-width: 1; }`,
    ].join('\n');
  })
  .join('\n')}
`;

/** Styles for the HTML around the svg: toolbar and tooltip. */
export const TIMELINE_HTML_CSS = `
.tl-root { position: relative; ${declarations(0)} color: var(--_ink); font-family: ${FONT}; }
@media (prefers-color-scheme: dark) { .tl-root { ${declarations(1)} } }
:is([data-theme="light"], .theme-light) .tl-root { ${declarations(0)} }
:is([data-theme="dark"], .theme-dark) .tl-root { ${declarations(1)} }
.tl-root .tl-svg:focus { outline: none; }
.tl-root .tl-svg:focus-visible { outline: 2px solid var(--_blocked); outline-offset: 2px; }
.tl-toolbar { display: flex; justify-content: flex-end; gap: 4px; align-items: center; height: 24px; font-size: 11px; }
.tl-toolbar button { font: inherit; font-size: 11px; line-height: 1; padding: 3px 7px; border-radius: 4px; cursor: pointer;
  border: 1px solid var(--_grid); background: var(--_bg); color: var(--_ink); }
.tl-toolbar button:disabled { opacity: 0.45; cursor: default; }
.tl-toolbar .tl-hint { color: var(--_muted); margin-right: 4px; }
.tl-toolbar .tl-hint-touch { display: none; }
@media (hover: none), (pointer: coarse) {
  .tl-toolbar .tl-hint-wheel { display: none; }
  .tl-toolbar .tl-hint-touch { display: inline; }
}
.tl-toolbar .tl-scale { display: inline-flex; align-items: center; gap: 2px; margin-right: 6px; cursor: pointer; }
.tl-tooltip { position: absolute; z-index: 10; pointer-events: none; max-width: 420px; padding: 8px 10px; border-radius: 6px;
  background: var(--_bg); color: var(--_ink); border: 1px solid var(--_grid); box-shadow: 0 4px 14px rgba(0,0,0,0.18); font-size: 12px; line-height: 1.35; }
.tl-tooltip-title { font-weight: 600; margin-bottom: 4px; }
.tl-tooltip pre { margin: 4px 0; padding: 4px 6px; border-radius: 4px; background: var(--_lane-system); font-size: 11px; white-space: pre-wrap; }
.tl-tooltip-row { margin-top: 3px; }
.tl-tooltip-key { color: var(--_muted); }
`;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const pathCache = new Map<string, string>();

/** The outline of a mark's shape, centred on 0,0, for a mark of radius r. */
export function symbolPath(shape: MarkShape, r: number): string {
  const key = `${shape}:${r}`;
  const cached = pathCache.get(key);
  if (cached !== undefined) return cached;
  const path = buildPath(shape, r);
  pathCache.set(key, path);
  return path;
}

function circle(r: number): string {
  return `M${round(r)},0A${round(r)},${round(r)} 0 1,1 ${round(-r)},0A${round(r)},${round(r)} 0 1,1 ${round(r)},0Z`;
}

function buildPath(shape: MarkShape, r: number): string {
  switch (shape) {
    case 'circle':
    case 'ring':
      return circle(r);
    case 'no-entry': {
      // A "no entry" sign: a disc with a bar cut out of it (even-odd fill).
      const w = r * 0.62;
      const h = r * 0.22;
      return `${circle(r * 1.1)}M${round(-w)},${round(-h)}H${round(w)}V${round(h)}H${round(-w)}Z`;
    }
    case 'triangle': {
      const R = r * 1.3;
      return `M0,${round(-R)}L${round(R * 0.95)},${round(R * 0.7)}L${round(-R * 0.95)},${round(R * 0.7)}Z`;
    }
    case 'hourglass': {
      const R = r * 1.05;
      return `M${round(-R)},${round(-R)}H${round(R)}L0,0ZM${round(-R)},${round(R)}H${round(R)}L0,0Z`;
    }
    case 'diamond': {
      const R = r * 1.2;
      return `M0,${round(-R)}L${round(R)},0L0,${round(R)}L${round(-R)},0Z`;
    }
    case 'cross': {
      // A plus turned 45 degrees.
      const R = r * 1.25;
      const w = r * 0.34;
      const plus: [number, number][] = [
        [w, -R],
        [w, -w],
        [R, -w],
        [R, w],
        [w, w],
        [w, R],
        [-w, R],
        [-w, w],
        [-R, w],
        [-R, -w],
        [-w, -w],
        [-w, -R],
      ];
      const s = Math.SQRT1_2;
      return `${plus.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${round((x - y) * s)},${round((x + y) * s)}`).join('')}Z`;
    }
  }
}
