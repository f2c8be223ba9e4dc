/**
 * Zoom and pan along x over a range of data: one behaviour for the backpressure charts and the timeline.
 * d3-zoom keeps the state, through its public API only (zoom(), zoomTransform, zoom.transform and its
 * kin on a selection): its transform maps the whole range onto the plot, so a transform of scale k shows
 * 1/k of it, and the range shown is the transform's rescaled x domain. Each user says which gestures
 * d3-zoom itself listens to (its filter); anything else it drives through zoomBy and pan.
 */
import { type D3ZoomEvent, scaleLinear, select, type ZoomTransform, zoom, zoomIdentity, zoomTransform } from 'd3';
import type { Domain } from './zoom-sync';

export interface AxisZoomOptions {
  /** Everything that may be shown, in data units. */
  full(): Domain;
  /** The plot's left and right edges, in px from the element's left. */
  plot(): readonly [number, number];
  /** The narrowest and the widest range that may be shown, in data units. */
  spans(): { min: number; max: number };
  /** The events d3-zoom takes as its own gestures (d3-zoom's filter); its default if unset. */
  filter?(event: Event): boolean;
  /** How far one wheel event zooms, as a power of two (d3-zoom's wheelDelta); its default if unset. */
  wheelDelta?(event: WheelEvent): number;
  /** The user moved the view: what it shows now, the event that moved it, the transform. Never called for show(). */
  onChange(shown: Domain, source: Event | null, transform: ZoomTransform): void;
}

export interface AxisZoom {
  /** The range the zoom shows now. */
  shown(): Domain;
  /** Shows `domain` (squeezed into the limits) without calling onChange: the view was set elsewhere. */
  show(domain: Domain): void;
  /** Zooms about the plot's middle: a factor above 1 zooms in. */
  zoomBy(factor: number, source: Event): void;
  /** The transform now, to pan from (see pan). */
  transform(): ZoomTransform;
  /** Slides the content `px` to the right of where `from` had it, stopping at either end of the range. */
  pan(from: ZoomTransform, px: number, source: Event): void;
  /** Stops listening. */
  detach(): void;
}

type Extent = [[number, number], [number, number]];

export function attachAxisZoom(element: Element, options: AxisZoomOptions): AxisZoom {
  const selection = select<Element, unknown>(element);
  // Zero height: the zoom only ever moves along x (the default constraint pins y to 0).
  const extent = (): Extent => {
    const [left, right] = options.plot();
    return [
      [left, 0],
      [right, 0],
    ];
  };
  const base = () => scaleLinear().domain(options.full()).range(options.plot());
  const span = () => Math.max(1e-9, options.full()[1] - options.full()[0]);
  const behaviour = zoom<Element, unknown>().extent(extent);
  if (options.filter) behaviour.filter(options.filter);
  if (options.wheelDelta) behaviour.wheelDelta(options.wheelDelta);
  // The limits and the range change as data arrives or the plot resizes: read them before each change.
  const refresh = () => {
    const { min, max } = options.spans();
    behaviour.scaleExtent([span() / Math.max(1e-9, max), span() / Math.max(1e-9, min)]).translateExtent(extent());
  };
  const shownBy = (transform: ZoomTransform): Domain => transform.rescaleX(base()).domain() as [number, number];

  // What a change is reported as: d3-zoom's own gesture event, the event passed to zoomBy or pan, or nothing (show).
  let reportAs: Event | 'quiet' | null = null;
  const change = (as: Event | 'quiet', apply: () => void) => {
    refresh();
    reportAs = as;
    try {
      apply();
    } finally {
      reportAs = null;
    }
  };
  behaviour.on('start.limits', refresh);
  behaviour.on('zoom', (event: D3ZoomEvent<Element, unknown>) => {
    if (reportAs === 'quiet') return;
    options.onChange(shownBy(event.transform), reportAs ?? (event.sourceEvent as Event | null) ?? null, event.transform);
  });
  // d3-zoom's gestures start on its own listeners; refresh the limits first, while its filter runs.
  const filter = behaviour.filter();
  behaviour.filter(function (this: Element, event: Event, datum: unknown) {
    const take = filter.call(this, event, datum);
    if (take) refresh();
    return take;
  });
  refresh();
  selection.call(behaviour).on('dblclick.zoom', null);

  const constrain = (transform: ZoomTransform) => behaviour.constrain()(transform, extent(), behaviour.translateExtent());
  return {
    shown: () => shownBy(zoomTransform(element)),
    show(domain) {
      refresh();
      const [kMin, kMax] = behaviour.scaleExtent();
      const k = Math.max(kMin, Math.min(kMax, span() / Math.max(1e-9, domain[1] - domain[0])));
      // The zoom maps x to x * k + t: the domain's start must land on the plot's left edge.
      const t = options.plot()[0] - base()(domain[0]) * k;
      change('quiet', () => behaviour.transform(selection, constrain(zoomIdentity.translate(t, 0).scale(k))));
    },
    zoomBy(factor, source) {
      change(source, () => behaviour.scaleBy(selection, factor));
    },
    transform: () => zoomTransform(element),
    pan(from, px, source) {
      change(source, () => behaviour.transform(selection, constrain(from.translate(px / from.k, 0))));
    },
    detach() {
      selection.on('.zoom', null);
    },
  };
}
