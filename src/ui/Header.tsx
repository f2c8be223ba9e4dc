import { scenarioSummary } from '../scenarios';
import { useLab } from '../store/react';
import { showLesson } from './deferred';
import { ExportMenu } from './ExportMenu';
import { FencingSwitch } from './FencingSwitch';
import { OfflineIndicator } from './OfflineIndicator';
import { useScenario } from './hooks';
import { ScenarioPicker } from './ScenarioPicker';
import { ScenarioEditorButton } from './scenario-editor/ScenarioEditorButton';
import { StrategyPicker } from './StrategyPicker';
import { ThemeToggle } from './ThemeToggle';

function Summary() {
  const scenario = useScenario();
  const strategy = useLab((s) => s.settings.strategy);
  const yours = useLab((s) => s.settings.definition !== undefined);
  // The scenarios' summaries tell what the lab's own strategies do; with the learner's SQL, nobody knows yet.
  const summary = yours
    ? `${scenario.title}, with your SQL.\nWhat happens is what PostgreSQL does with your statements: step through it, or explore every schedule below.`
    : scenarioSummary(scenario, strategy);
  const [first, second] = summary.split('\n');
  return (
    <p id="scenario-summary" className="summary">
      {first}
      {second ? (
        <>
          <br />
          {second}
        </>
      ) : null}
    </p>
  );
}

/** Opens or leaves the docked tour; its place is kept in the lesson's progress, so it resumes where it was left. */
function TourButton() {
  const open = useLab((s) => s.tourOpen);
  const setTourOpen = useLab((s) => s.setTourOpen);
  return (
    <button type="button" aria-pressed={open} onClick={() => setTourOpen(!open)} title="The lesson's current step beside the timeline">
      Tour
    </button>
  );
}

export function Header() {
  const setHelpOpen = useLab((s) => s.setHelpOpen);
  return (
    <header className="header">
      <div className="header-row">
        <h1 title="Job claims, leases and fencing on a real Postgres (PGlite) in your browser">Lease Lab</h1>
        <div className="settings">
          <ScenarioPicker />
          <ScenarioEditorButton />
          <StrategyPicker />
          <FencingSwitch />
        </div>
        <div className="header-tools">
          <OfflineIndicator />
          <TourButton />
          <button type="button" onClick={showLesson}>
            Lesson ↓
          </button>
          <ExportMenu />
          <ThemeToggle />
          <button type="button" className="icon-button" onClick={() => setHelpOpen(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
            ?
          </button>
        </div>
      </div>
      <Summary />
    </header>
  );
}
