/** The backpressure lab: knobs, playback, and FIFO and fair side by side on the same arrivals. */
import { useMemo } from 'react';
import { ZoomSync } from '../../charts/zoom-sync';
import { useLabStore } from '../../store/react';
import { encodeView } from '../../store/permalink';
import { viewOf } from '../../store/sync';
import { CLAIM_POLICIES } from '../../sim/backpressure/types';
import { ThemeToggle } from '../ThemeToggle';
import { useBackpressure } from './context';
import { Controls } from './Controls';
import { Knobs, PresetField, PresetSummary } from './Knobs';
import { LaneColumn } from './LaneColumn';
import { Legend } from './Legend';
import { longestWait } from './model';
import { SqlPanel } from './SqlPanel';
import { useBackpressureKeys } from './useBackpressureKeys';
import { usePalette } from './usePalette';

export function BackpressureView() {
  const lab = useLabStore();
  const lanes = useBackpressure((s) => s.lanes);
  const config = useBackpressure((s) => s.config);
  const sync = useMemo(() => new ZoomSync(), []);
  const palette = usePalette();
  useBackpressureKeys();
  const last = Math.max(10, ...CLAIM_POLICIES.map((p) => lanes[p].ticks.length - 1));
  const full = useMemo(() => [0, last] as const, [last]);
  const maxWait = useMemo(() => longestWait(config, lanes), [config, lanes]);
  const backToLab = () => {
    window.location.hash = encodeView(viewOf(lab.getState()));
  };
  return (
    <div className="app bp-view">
      <header className="header">
        <div className="header-row">
          <h1>Lease Lab · Backpressure</h1>
          <PresetField />
          <div className="header-tools">
            <button type="button" onClick={backToLab}>
              ← Races &amp; leases
            </button>
            <ThemeToggle />
          </div>
        </div>
        <PresetSummary />
      </header>
      <Knobs />
      <Controls />
      <Legend palette={palette} />
      <main className="bp-lanes">
        {CLAIM_POLICIES.map((policy) => (
          <LaneColumn key={policy} policy={policy} sync={sync} full={full} maxWait={maxWait} palette={palette} />
        ))}
      </main>
      <SqlPanel />
    </div>
  );
}
