/**
 * The backpressure lab's charts with 10,000 seconds of data per lane (two lanes, four charts each, the
 * real TimeChart, ZoomSync and drawChart), for the benchmark to pan and zoom. The data is a seeded
 * random walk, so every run of the benchmark draws the same thing.
 */
import { createRoot } from 'react-dom/client';
import { drawChart } from '../../src/charts/draw';
import { chartColors } from '../../src/charts/colors';
import { TimeChart } from '../../src/charts/TimeChart';
import { ZoomSync } from '../../src/charts/zoom-sync';
import { seededRandom } from '../../src/sim/random';
import type { TickMetrics } from '../../src/sim/backpressure/types';
import type { LaneState } from '../../src/store/backpressure-store';
import { chartsFor } from '../../src/ui/backpressure/model';
import { findPreset } from '../../src/sim/backpressure/presets';

const SECONDS = Number(new URLSearchParams(location.search).get('seconds') ?? 10_000);
const config = findPreset('overload')!.config;
const palette = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#6a3d9a'];

function lane(seed: number): LaneState {
  const random = seededRandom(seed);
  const ticks: TickMetrics[] = [];
  const pending = [0, 0, 0];
  const running = [0, 0, 0];
  const cost = [0, 0, 0];
  for (let second = 0; second < SECONDS; second++) {
    for (let t = 0; t < 3; t++) {
      pending[t] = Math.max(0, pending[t]! + Math.round((random() - 0.48) * 4));
      running[t] = Math.min(4, Math.max(0, running[t]! + Math.round((random() - 0.5) * 2)));
      cost[t] = cost[t]! + running[t]! * Math.round(random() * 3);
    }
    ticks.push({
      second,
      arrived: second,
      pending: [...pending],
      running: [...running],
      calling: Math.min(
        6,
        running.reduce((a, b) => a + b, 0),
      ),
      done: 0,
      stopped: 0,
      costCents: [...cost],
      idleClaims: 0,
      throttledCalls: 0,
      steps: 8,
    });
  }
  return { ticks, claims: [], totalRuns: SECONDS, steps: 0, done: true, finished: true };
}

const lanes = [lane(1), lane(2)];
const sync = new ZoomSync();
const full = [0, SECONDS - 1] as const;

function App() {
  return (
    <>
      {lanes.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: two fixed lanes
        <div key={i}>
          {chartsFor(config, l, lanes, SECONDS - 1, palette).map((chart) => (
            <TimeChart key={chart.id} spec={chart.spec} full={full} sync={sync} height={92} label={chart.title} />
          ))}
        </div>
      ))}
    </>
  );
}

createRoot(document.getElementById('root')!).render(<App />);

/** Draws all eight charts at `domain`, off screen, n times; returns each pass's milliseconds. */
function timeRedraws(n: number): number[] {
  const canvas = document.createElement('canvas');
  canvas.width = 600;
  canvas.height = 92;
  const ctx = canvas.getContext('2d')!;
  const colors = chartColors(document.body);
  const specs = lanes.flatMap((l) => chartsFor(config, l, lanes, SECONDS - 1, palette).map((c) => c.spec));
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const span = 200 + (i % 10) * 900;
    const start = ((i * 397) % (SECONDS - span)) | 0;
    const began = performance.now();
    for (const spec of specs) drawChart(ctx, 600, 92, [start, start + span], spec, colors);
    times.push(performance.now() - began);
  }
  return times;
}

/** Records the time between animation frames until stopped. */
function recordFrames(): () => number[] {
  const gaps: number[] = [];
  let last: number | null = null;
  let running = true;
  const frame = (now: number) => {
    if (last !== null) gaps.push(now - last);
    last = now;
    if (running) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return () => {
    running = false;
    return gaps;
  };
}

(window as unknown as { benchBackpressure: unknown }).benchBackpressure = { timeRedraws, recordFrames, seconds: SECONDS };
document.getElementById('status')!.textContent = `${SECONDS} seconds per lane, ready`;
document.documentElement.dataset.benchReady = 'true';
