/**
 * The interleaving as a timeline: one lane per worker, one slot per step, revealed up to `position`.
 *
 * React owns the container and the <svg>; layout.ts turns the trace into plain geometry and
 * TimelineSvg draws it. Zoom and pan change only the visible window along x (slot coordinates), which
 * layout() uses to leave out marks that are not in view, so panning costs the same for 100 steps
 * as for 10,000.
 */
import { bisector, type ZoomTransform } from 'd3';
import {
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { AxisZoom } from '../charts/axis-zoom';
import { STRATEGY_LABELS, type Trace } from '../sim/types';
import { ANOMALY_NAMES, paramsText, resultText, sqlPreview, stepTitle } from './describe';
import type { TimelineMark } from './layers/marks';
import { defaultTimelineView, followLatest, layoutTimeline, type TimelineLayout, type TimelineView, timelineHeight } from './layout';
import type { TimelineAxis } from './model';
import { steady } from './steady';
import { TIMELINE_HTML_CSS } from './theme';
import { TimelineSvg } from './TimelineSvg';

export interface TimelineProps {
  trace: Trace;
  /** Steps revealed: 0..trace.steps.length. Only steps with index < position are drawn. */
  position: number;
  /** The selected step's index, highlighted. */
  selected: number | null;
  /** Called with a step's index when its mark (or its column) is clicked. */
  onSelect: (stepIndex: number) => void;
  /** Fixed width in px. Default: the container's width, followed with a ResizeObserver. */
  width?: number;
  /** Fixed height in px. Default: the height that gives every lane its full room. */
  height?: number;
  /** The <svg> element, for export (timelineSvgText, timelinePng). */
  svgRef?: Ref<SVGSVGElement>;
  className?: string;
  /**
   * Fetch the zoom and pan behaviour now (d3-zoom, in a chunk of its own, which the page's first load leaves
   * out). Until then a zoom button, a zoom key or a drag fetches it, and the zoom it asked for is done once it is in.
   * Default true.
   */
  fetchZoom?: boolean;
  /** Offer "time to scale" (the page offers it where the clock moves). Default true; once on, it stays offered so it can be turned off. */
  offerTimeScale?: boolean;
}

/** Width used before the container has been measured (and when rendering on the server). */
const FALLBACK_WIDTH = 960;
const ZOOM_STEP = 1.5;

/** d3-zoom and the charts' behaviour on it, fetched once per page (a failed fetch is tried again on the next wish). */
let axisZoomModule: Promise<typeof import('../charts/axis-zoom')> | null = null;
function loadAxisZoom(): Promise<typeof import('../charts/axis-zoom')> {
  axisZoomModule ??= import('../charts/axis-zoom').catch((error: unknown) => {
    axisZoomModule = null;
    throw error;
  });
  return axisZoomModule;
}

const byX = bisector((mark: TimelineMark) => mark.x);

/** The revealed step whose column is under x, if any. */
function stepAt(layout: TimelineLayout, x: number, y: number): number | null {
  const bottom = layout.anomalyBand?.bottom ?? layout.plot.bottom;
  if (y < layout.plot.top - 20 || y > bottom || x < layout.plot.left || x > layout.plot.right) return null;
  const marks = layout.marks;
  const i = byX.center(marks, x);
  const mark = marks[i];
  if (!mark || Math.abs(mark.x - x) > Math.max(layout.slot / 2, 6)) return null;
  return mark.step;
}

/** One wheel event's zoom, as a power of two: the span changes by e^(0.002 px) (a line is 16 px, a page 400). */
function wheelZoom(event: WheelEvent): number {
  return (-event.deltaY * wheelUnit(event) * 0.002) / Math.LN2;
}

function wheelUnit(event: WheelEvent): number {
  return event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

export function Timeline({
  trace,
  position,
  selected,
  onSelect,
  width: fixedWidth,
  height: fixedHeight,
  svgRef,
  className,
  fetchZoom = true,
  offerTimeScale = true,
}: TimelineProps) {
  const uid = `tl${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const rootRef = useRef<HTMLDivElement>(null);
  const svgElement = useRef<SVGSVGElement | null>(null);
  const [measured, setMeasured] = useState<number | null>(null);
  const width = fixedWidth ?? measured ?? FALLBACK_WIDTH;
  const shown = Math.max(0, Math.min(position, trace.steps.length));
  const height = fixedHeight ?? timelineHeight(trace, width, shown);

  // The window along x: null follows the default (every step, or the latest ones); zoom and pan set it.
  const [view, setView] = useState<TimelineView | null>(null);
  // Steps evenly spaced (the default), or the clock's moves drawn to scale: another x, so the zoom starts over.
  const [scale, setScale] = useState<TimelineAxis>('steps');
  const traceKey = `${trace.scenario}|${trace.settings.strategy}|${trace.settings.fencing}`;
  const [seen, setSeen] = useState({ traceKey, position: shown });
  // Only with a zoomed view (or a new scenario) is there anything to adjust: the default view follows the
  // latest step by itself, and an update during render would run this component twice for each step.
  if (seen.traceKey !== traceKey || (view !== null && seen.position !== shown)) {
    // Adjusting state while rendering (React's pattern for reacting to new props): a new scenario
    // resets the zoom; a new step scrolls just enough to keep the latest step in view.
    setSeen({ traceKey, position: shown });
    if (seen.traceKey !== traceKey) setView(null);
    else if (view) setView(followLatest(trace, view, shown, scale));
  }

  // While a drag is in progress the drawing is laid out `overscan` slots beyond each side and slid by
  // `shift` px; it is laid out again only when the overscan runs out, so a drag costs a transform per frame.
  const [overscan, setOverscan] = useState(0);
  const [shift, setShift] = useState(0);
  const freshLayout = useMemo(
    () => layoutTimeline(trace, { width, height }, view ?? undefined, { position: shown, overscan, axis: scale }),
    [trace, width, height, view, shown, overscan, scale],
  );
  // The drawn layout, as of the last commit: what did not move keeps its objects (steady.ts), so a step
  // redraws only what it changed.
  const layoutRef = useRef(freshLayout);
  const layout = useMemo(() => steady(layoutRef.current, freshLayout), [freshLayout]);
  useLayoutEffect(() => {
    layoutRef.current = layout;
  }, [layout]);

  const [hovered, setHovered] = useState<number | null>(null);
  const drag = useRef<{
    id: number;
    /** Pointer x where the drag began. */
    x: number;
    /** The zoom's transform when the drag began: the drag pans from it. */
    from: ZoomTransform;
    /** The view laid out while the drawing slides. */
    base: TimelineView;
    slot: number;
    /** How far the drawing may slide before it must be laid out again, in px. */
    reach: number;
    shift: number;
    moved: boolean;
  } | null>(null);
  /** A press that came before the zoom's code: it cannot pan, but on release it is still a click on a step. */
  const pressBeforeZoom = useRef<number | null>(null);
  const frame = useRef<{ id: number; view: TimelineView } | null>(null);

  /** Views change at most once per animation frame, however fast the pointer or wheel events come. */
  const requestView = useCallback((next: TimelineView) => {
    if (frame.current) {
      frame.current.view = next;
      return;
    }
    const id = requestAnimationFrame(() => {
      const pending = frame.current;
      frame.current = null;
      if (pending) setView(pending.view);
    });
    frame.current = { id, view: next };
  }, []);
  useEffect(
    () => () => {
      if (frame.current) cancelAnimationFrame(frame.current.id);
    },
    [],
  );

  useLayoutEffect(() => {
    if (fixedWidth !== undefined) return;
    const root = rootRef.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const w = Math.round(entries[0]?.contentRect.width ?? 0);
      if (w > 0) setMeasured(w);
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [fixedWidth]);

  /** Once per frame, React state catches up with the drag (handlers only update the ref). */
  const dragFrame = useRef<number | null>(null);
  const syncDrag = useCallback(() => {
    if (dragFrame.current !== null) return;
    dragFrame.current = requestAnimationFrame(() => {
      dragFrame.current = null;
      const d = drag.current;
      if (!d?.moved) return;
      setView(d.base);
      setShift(d.shift);
    });
  }, []);
  useEffect(
    () => () => {
      if (dragFrame.current !== null) cancelAnimationFrame(dragFrame.current);
    },
    [],
  );

  // Zoom and pan go through the charts' zoom behaviour (axis-zoom.ts). Ctrl/⌘ + wheel (and trackpad
  // pinch) is d3-zoom's own gesture and zooms around the pointer; a drag, a horizontal or Shift + wheel,
  // the buttons and the keys are driven from here; a plain vertical wheel is left to scroll the page.
  const axis = useRef<AxisZoom | null>(null);
  // What the learner asked of the zoom before it was in: done, in order, once it is attached.
  const zoomWishes = useRef<Array<(zoom: AxisZoom) => void>>([]);
  // Counts the wishes that found no zoom: each one (re)starts the fetch, so a failed fetch is tried again.
  const [zoomAsked, setZoomAsked] = useState(0);
  const withZoom = (wish: (zoom: AxisZoom) => void) => {
    if (axis.current) wish(axis.current);
    else {
      zoomWishes.current.push(wish);
      setZoomAsked((n) => n + 1);
    }
  };
  const zoomWanted = fetchZoom || zoomAsked > 0;
  /** Attaches the zoom to the <svg>, does the wishes made before it came, and returns what detaches it. */
  const attachZoom = (svg: SVGSVGElement, attachAxisZoom: typeof import('../charts/axis-zoom')['attachAxisZoom']) => {
    const zoom = attachAxisZoom(svg, {
      full: () => layoutRef.current.domain,
      plot: () => [layoutRef.current.plot.left, layoutRef.current.plot.right],
      spans: () => ({ min: layoutRef.current.zoom.minSpan, max: layoutRef.current.zoom.maxSpan }),
      filter: (event) => event.type === 'wheel' && ((event as WheelEvent).ctrlKey || (event as WheelEvent).metaKey),
      wheelDelta: wheelZoom,
      onChange: (shown, source) => {
        const d = drag.current;
        if (d?.moved) {
          // The drawing slides by how far the view moved from the laid-out one, until the overscan runs out.
          const dx = (d.base.x0 - shown[0]) * d.slot;
          if (Math.abs(dx) > d.reach) {
            d.base = { x0: shown[0], x1: shown[1] };
            d.shift = 0;
          } else {
            d.shift = dx;
          }
          syncDrag();
        } else if (source?.type === 'wheel') requestView({ x0: shown[0], x1: shown[1] });
        else setView({ x0: shown[0], x1: shown[1] });
      },
    });
    axis.current = zoom;
    zoom.show(layoutRef.current.view);
    for (const wish of zoomWishes.current.splice(0)) wish(zoom);
    const onWheel = (event: WheelEvent) => {
      if (event.ctrlKey || event.metaKey) return;
      const dx = Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.shiftKey ? event.deltaY : 0;
      if (dx === 0) return;
      event.preventDefault();
      zoom.pan(zoom.transform(), -dx * wheelUnit(event), event);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      svg.removeEventListener('wheel', onWheel);
      zoom.detach();
      axis.current = null;
    };
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a wish that found no zoom asks again (zoomAsked); attachZoom reads refs and the callbacks listed
  useEffect(() => {
    const svg = svgElement.current;
    if (!svg || !zoomWanted || axis.current) return;
    let detach: (() => void) | null = null;
    let cancelled = false;
    loadAxisZoom().then(
      ({ attachAxisZoom }) => {
        if (cancelled) return;
        detach = attachZoom(svg, attachAxisZoom);
      },
      // Not fetched (offline, and not in the offline copy): the timeline draws and steps without zoom, and the next wish tries again.
      () => {
        zoomWishes.current = [];
      },
    );
    return () => {
      cancelled = true;
      detach?.();
    };
  }, [zoomWanted, zoomAsked, requestView, syncDrag]);
  // What the learner sees is the laid-out view: the zoom follows it whenever it moved otherwise (a new
  // step, a reset, a resize), except while a wheel's view waits for its frame or a drag slides the drawing.
  useLayoutEffect(() => {
    const zoom = axis.current;
    if (!zoom || frame.current || drag.current?.moved) return;
    const [x0, x1] = zoom.shown();
    const span = layout.view[1] - layout.view[0];
    if (Math.abs(x0 - layout.view[0]) > span * 1e-9 || Math.abs(x1 - layout.view[1]) > span * 1e-9) zoom.show(layout.view);
  }, [layout]);

  const localPoint = (event: { clientX: number; clientY: number }) => {
    const box = svgElement.current?.getBoundingClientRect();
    return box ? { x: event.clientX - box.left, y: event.clientY - box.top } : { x: 0, y: 0 };
  };

  /** A click on the timeline selects the step under it, if any. */
  const selectAt = (event: { clientX: number; clientY: number }) => {
    const p = localPoint(event);
    const step = stepAt(layout, p.x, p.y);
    if (step !== null) onSelect(step);
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    // A drag before the zoom is in fetches it; this drag does not pan (it has no transform to pan from),
    // but a click selects its step as any other does.
    if (!axis.current) {
      withZoom(() => {});
      pressBeforeZoom.current = event.pointerId;
      return;
    }
    const span = layout.view[1] - layout.view[0];
    drag.current = {
      id: event.pointerId,
      x: event.clientX,
      from: axis.current.transform(),
      base: { x0: layout.view[0], x1: layout.view[1] },
      slot: layout.slot,
      reach: span * layout.slot * 0.9,
      shift: 0,
      moved: false,
    };
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (d && d.id === event.pointerId) {
      // Dragging right shows earlier steps; the zoom stops at either end of the trace.
      const raw = event.clientX - d.x;
      if (!d.moved && Math.abs(raw) > 4) {
        d.moved = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        setHovered(null);
        setOverscan(d.base.x1 - d.base.x0);
      }
      if (d.moved) axis.current?.pan(d.from, raw, event.nativeEvent);
      return;
    }
    const p = localPoint(event);
    const step = stepAt(layout, p.x, p.y);
    if (step !== hovered) setHovered(step);
  };
  const endDrag = () => {
    const d = drag.current;
    drag.current = null;
    if (!d?.moved || !axis.current) return;
    const [x0, x1] = axis.current.shown();
    setView({ x0, x1 });
    setShift(0);
    setOverscan(0);
  };
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (pressBeforeZoom.current === event.pointerId) {
      pressBeforeZoom.current = null;
      selectAt(event);
      return;
    }
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    if (d.moved) {
      event.currentTarget.releasePointerCapture(event.pointerId);
      endDrag();
      return;
    }
    drag.current = null;
    selectAt(event);
  };
  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    // Arrow keys belong to the app (step back / forward); the timeline only zooms.
    const source = event.nativeEvent;
    if (event.key === '+' || event.key === '=') withZoom((zoom) => zoom.zoomBy(ZOOM_STEP, source));
    else if (event.key === '-' || event.key === '_') withZoom((zoom) => zoom.zoomBy(1 / ZOOM_STEP, source));
    else if (event.key === '0') setView(null);
    else return;
    event.preventDefault();
  };

  const setSvg = useCallback(
    (element: SVGSVGElement | null) => {
      svgElement.current = element;
      assignRef(svgRef, element);
    },
    [svgRef],
  );

  const selectedStep = selected !== null && selected < shown ? trace.steps[selected] : undefined;
  const ariaLabel =
    `Timeline of ${trace.scenario} (${STRATEGY_LABELS[trace.settings.strategy]}, fencing ${trace.settings.fencing ? 'on' : 'off'}): ` +
    `${shown} of ${trace.steps.length} steps shown` +
    (scale === 'time' ? ', time to scale' : '') +
    (selectedStep ? `; selected ${stepTitle(selectedStep)}` : '') +
    (layout.links.length > 0 ? `; anomalies: ${layout.links.map((l) => l.label).join(', ')}` : '');
  const zoomedIn = view !== null;
  const atDefault = useMemo(() => defaultTimelineView(trace, { width, height }, shown, scale), [trace, width, height, shown, scale]);

  return (
    <div ref={rootRef} className={`tl-root${className ? ` ${className}` : ''}`}>
      <style>{TIMELINE_HTML_CSS}</style>
      <div className="tl-toolbar">
        {/* Only one shows (theme.ts): the wheel's where the pointer is a mouse, the buttons' on a touch screen. */}
        <span className="tl-hint tl-hint-wheel">drag to pan · Ctrl + wheel to zoom</span>
        <span className="tl-hint tl-hint-touch">drag to pan · − and + to zoom</span>
        {offerTimeScale || scale === 'time' ? (
          <label className="tl-scale" title="Space the steps by the virtual clock: a 60 s lease long, an instant short">
            <input
              type="checkbox"
              checked={scale === 'time'}
              onChange={(event) => {
                setScale(event.target.checked ? 'time' : 'steps');
                setView(null);
              }}
            />{' '}
            time to scale
          </label>
        ) : null}
        <button
          type="button"
          aria-label="Zoom out"
          onClick={(event) => {
            const source = event.nativeEvent;
            withZoom((zoom) => zoom.zoomBy(1 / ZOOM_STEP, source));
          }}
          disabled={layout.view[1] - layout.view[0] >= layout.zoom.maxSpan - 1e-9}
        >
          −
        </button>
        <button
          type="button"
          aria-label="Zoom in"
          onClick={(event) => {
            const source = event.nativeEvent;
            withZoom((zoom) => zoom.zoomBy(ZOOM_STEP, source));
          }}
          // Before the first step there is nothing drawn to zoom into.
          disabled={position === 0 || layout.view[1] - layout.view[0] <= layout.zoom.minSpan + 1e-9}
        >
          +
        </button>
        <button type="button" onClick={() => setView(null)} disabled={!zoomedIn || (atDefault.x0 === layout.view[0] && atDefault.x1 === layout.view[1])}>
          Reset zoom
        </button>
      </div>
      <TimelineSvg
        ref={setSvg}
        layout={layout}
        selected={selected}
        hovered={hovered}
        uid={uid}
        ariaLabel={ariaLabel}
        shiftX={shift}
        tabIndex={0}
        data-selected={selected ?? undefined}
        style={{ touchAction: 'pan-y', cursor: hovered !== null ? 'pointer' : 'grab' }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          pressBeforeZoom.current = null;
          endDrag();
        }}
        onPointerLeave={() => setHovered(null)}
        onKeyDown={onKeyDown}
      />
      {hovered !== null && trace.steps[hovered] ? <Tooltip layout={layout} trace={trace} step={hovered} /> : null}
    </div>
  );
}

function Tooltip({ layout, trace, step: index }: { layout: TimelineLayout; trace: Trace; step: number }) {
  const mark = layout.marks.find((m) => m.step === index);
  const step = trace.steps[index];
  if (!mark || !step) return null;
  const sql = sqlPreview(step.sql);
  const params = paramsText(step.params);
  const result = resultText(step);
  const anomalies = layout.links.filter((l) => l.steps.includes(index));
  // Beside the mark, on whichever side has room; above it when the mark is in the lower half.
  const flip = mark.x > layout.width - 440;
  const style: CSSProperties = flip ? { right: layout.width - mark.x + 14 } : { left: mark.x + 14 };
  if (mark.y > layout.height / 2) style.bottom = layout.height - mark.y + 10;
  else style.top = TOOLBAR_HEIGHT + mark.y + 10;
  return (
    <div className="tl-tooltip" role="tooltip" style={style}>
      <div className="tl-tooltip-title">{stepTitle(step)}</div>
      <div>{step.note}</div>
      {sql ? <pre>{sql}</pre> : null}
      {params ? (
        <div className="tl-tooltip-row">
          <span className="tl-tooltip-key">params </span>
          {params}
        </div>
      ) : null}
      {result ? (
        <div className="tl-tooltip-row">
          <span className="tl-tooltip-key">result </span>
          {result}
        </div>
      ) : null}
      {anomalies.map((a) => (
        <div key={`${a.kind}-${a.runId}`} className="tl-tooltip-row">
          <span className="tl-tooltip-key">{ANOMALY_NAMES[a.kind]}: </span>
          {a.message}
        </div>
      ))}
    </div>
  );
}

/** Height of the toolbar row above the svg (the tooltip is placed relative to the root). */
const TOOLBAR_HEIGHT = 24;
