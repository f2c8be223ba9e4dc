import { useMemo } from 'react';
import { STRATEGY_LABELS } from '../../sim/types';
import { encodeView } from '../../store/permalink';
import { useLab } from '../../store/react';
import { withSpecLink } from '../../store/spec-link';
import { ClockControls } from '../ClockControls';
import { EngineBanner } from '../EngineBanner';
import { HelpDialog } from '../HelpDialog';
import { useScenario } from '../hooks';
import { Notices } from '../Notices';
import { PlaybackControls } from '../PlaybackControls';
import { StepDetails } from '../StepDetails';
import { TimelinePanel } from '../TimelinePanel';
import { useKeyboard } from '../useKeyboard';
import { fullLabAddress, withFragment } from './address';
import { Narration } from './Narration';

/**
 * The address of the view on screen in the full lab, from the store (the address bar is written a moment
 * later). A spec the embed's link carried goes along: the embed has no spec panel, the full lab shows it.
 */
function useFullLabAddress(): string {
  const scenarioId = useLab((s) => s.scenarioId);
  const settings = useLab((s) => s.settings);
  const schedule = useLab((s) => s.schedule);
  const position = useLab((s) => s.position);
  const spec = useLab((s) => s.specRunner.link);
  const order = useLab((s) => s.specRunner.shownOrder);
  const step = useLab((s) => s.specRunner.shownStep);
  return useMemo(
    () => fullLabAddress(withFragment(window.location.href, withSpecLink(encodeView({ scenarioId, settings, schedule, position }), spec, order, step))),
    [scenarioId, settings, schedule, position, spec, order, step],
  );
}

/** `?embed`: the timeline, the controls, the step's details and one line of narration; nothing else. */
export function EmbedLab() {
  // Keys go to a frame's document only while it has focus: the host page keeps its own keys.
  useKeyboard();
  const scenario = useScenario();
  const strategy = useLab((s) => s.settings.strategy);
  const fencing = useLab((s) => s.settings.fencing);
  const href = useFullLabAddress();
  return (
    <div className="app embed">
      <header className="embed-header">
        <h1 className="embed-title">{scenario.title}</h1>
        <span className="muted">
          {STRATEGY_LABELS[strategy]}, fencing {fencing ? 'on' : 'off'}
        </span>
        <a className="embed-open" href={href} target="_blank" rel="noopener">
          Open in Lease Lab ↗
        </a>
      </header>
      <EngineBanner />
      <Notices />
      <div className="toolbar embed-toolbar">
        <PlaybackControls />
        <ClockControls />
      </div>
      <Narration />
      <main className="stage">
        <section className="stage-main" aria-label="Timeline">
          <TimelinePanel />
        </section>
        <div className="side">
          <StepDetails />
        </div>
      </main>
      {/* "?" opens the keys' help here too (and Escape closes it): without it, "?" would leave the keys waiting on a dialog that is not there. */}
      <HelpDialog />
    </div>
  );
}
