/**
 * A page for trying the timeline by hand and from Playwright (dev only, not part of the app bundle):
 *
 *   npm run timeline:preview   then open /scripts/timeline-preview/preview.html?case=race&width=1280
 *
 * ?case= one of PREVIEW_CASES' names, or synthetic-N for an N-step synthetic trace. ?theme=dark.
 * window.__timeline lets a script step, select and time renders.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import type { Trace } from '../../src/sim/types';
import { Timeline } from '../../src/timeline/Timeline';
import { timelinePng, timelineSvgText } from '../../src/timeline/export';
import { syntheticTrace } from './synthetic';
import { buildPreviewTraces, PREVIEW_CASES } from './traces';

declare global {
  interface Window {
    __timeline?: {
      steps: number;
      setPosition(position: number): number;
      setSelected(step: number | null): number;
      svgText(): string;
      png(): Promise<number>;
      selected(): number | null;
    };
  }
}

const params = new URLSearchParams(location.search);
const name = params.get('case') ?? 'race';
const width = params.get('width') ? Number(params.get('width')) : null;
if (params.get('theme')) document.documentElement.dataset.theme = params.get('theme')!;

async function load(): Promise<Trace> {
  const synthetic = /^synthetic-(\d+)$/.exec(name);
  if (synthetic) return syntheticTrace(Number(synthetic[1]));
  const found = PREVIEW_CASES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown case ${name}`);
  return (await buildPreviewTraces([found])).get(name)!;
}

function Preview({ trace }: { trace: Trace }) {
  const [position, setPosition] = useState(trace.steps.length);
  const [selected, setSelected] = useState<number | null>(null);
  window.__timeline = {
    steps: trace.steps.length,
    setPosition(next) {
      const t = performance.now();
      flushSync(() => setPosition(next));
      return performance.now() - t;
    },
    setSelected(next) {
      const t = performance.now();
      flushSync(() => setSelected(next));
      return performance.now() - t;
    },
    svgText: () => timelineSvgText(document.querySelector('svg.tl-svg') as SVGSVGElement),
    png: async () => (await timelinePng(document.querySelector('svg.tl-svg') as SVGSVGElement)).size,
    selected: () => selected,
  };
  return (
    <div style={{ width: width ?? undefined }}>
      <div className="bar">
        <button type="button" onClick={() => setPosition((p) => Math.max(0, p - 1))}>
          ← back
        </button>
        <span>
          {position} / {trace.steps.length}
        </span>
        <button type="button" onClick={() => setPosition((p) => Math.min(trace.steps.length, p + 1))}>
          forward →
        </button>
        <span>selected: {selected === null ? '—' : `#${selected + 1}`}</span>
      </div>
      <Timeline trace={trace} position={position} selected={selected} onSelect={setSelected} />
    </div>
  );
}

load().then((trace) => createRoot(document.getElementById('root')!).render(<Preview trace={trace} />));
