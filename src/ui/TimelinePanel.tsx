import { useCallback, useMemo } from 'react';
import { shownStepIndex } from '../store/derive';
import { useLab, useLabStore } from '../store/react';
import { Timeline } from '../timeline/Timeline';
import { useSettledAndQuiet } from './deferred';
import { useBusy, useShownControls } from './hooks';
import { timelineSvg } from './timelineRef';

/** The main view: the timeline (src/timeline/, drawn with D3's scales), fed the trace, the cursor and the selection. */
export function TimelinePanel() {
  const store = useLabStore();
  const steps = useLab((s) => s.steps);
  const scenarioId = useLab((s) => s.scenarioId);
  const settings = useLab((s) => s.settings);
  const schedule = useLab((s) => s.schedule);
  const position = useLab((s) => s.position);
  const selected = useLab((s) => s.selected);
  const select = useLab((s) => s.select);
  // The zoom's code (d3-zoom) comes in the first pause after the lab has started: the first screen and
  // the first step draw without it.
  const fetchZoom = useSettledAndQuiet();
  const busy = useBusy();
  const shown = useShownControls();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the trace is rebuilt exactly when its parts change
  const trace = useMemo(() => store.getState().trace(), [store, steps, scenarioId, settings, schedule]);
  const setSvg = useCallback((element: SVGSVGElement | null) => {
    timelineSvg.current = element;
  }, []);
  return (
    <section className={busy ? 'timeline-panel is-busy' : 'timeline-panel'} aria-label="Timeline" aria-busy={busy}>
      <Timeline
        trace={trace}
        position={Math.min(position, steps.length)}
        selected={shownStepIndex(position, selected)}
        onSelect={select}
        svgRef={setSvg}
        fetchZoom={fetchZoom}
        offerTimeScale={shown.clock}
      />
    </section>
  );
}
