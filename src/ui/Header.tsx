import { RECORDING_PLANS, recordingIdFor } from '../recordings';
import { scenarioSummary } from '../scenarios';
import { isAuthoredId, pickerName } from '../scenarios/authored';
import { useLab } from '../store/react';
import { showLesson } from './deferred';
import { ExportMenu } from './ExportMenu';
import { FencingSwitch } from './FencingSwitch';
import { OfflineIndicator } from './OfflineIndicator';
import { AllControlsSwitch } from './AllControlsSwitch';
import { useScenario, useShownControls } from './hooks';
import { useStartCardOpen } from './StartCard';
import { ScenarioPicker } from './ScenarioPicker';
import { ScenarioEditorButton } from './scenario-editor/ScenarioEditorButton';
import { StrategyPicker } from './StrategyPicker';
import { ThemeToggle } from './ThemeToggle';

function Summary() {
  const scenario = useScenario();
  // The start card tells this scenario's story on a first visit (and gives away less of its end).
  const carded = useStartCardOpen();
  const strategy = useLab((s) => s.settings.strategy);
  const yours = useLab((s) => s.settings.definition !== undefined);
  // A recording's level changes the story the scenario's summary tells at READ COMMITTED: its plan says what it shows.
  const recorded = useLab((s) => (s.settings.isolation ? recordingIdFor(s.scenarioId, s.settings) : null));
  const plan = RECORDING_PLANS.find((candidate) => candidate.id === recorded);
  // The scenarios' summaries tell what the lab's own strategies do; with the learner's SQL, nobody knows yet.
  const summary = plan
    ? `${scenario.title}, recorded on PostgreSQL.\n${plan.shows[0]!.toUpperCase()}${plan.shows.slice(1)}.`
    : yours
      ? `${scenario.title}, with your SQL.\nWhat happens is what PostgreSQL does with your statements: step through it, or explore every schedule below.`
      : isAuthoredId(scenario.id) && pickerName(scenario.title) !== scenario.title
        ? // The picker shows a shortened name (pickerName): the whole title is said here.
          `${scenario.title}. ${scenarioSummary(scenario, strategy)}`
        : scenarioSummary(scenario, strategy);
  const [first, second] = summary.split('\n');
  return (
    <p id="scenario-summary" className="summary" hidden={carded}>
      {first}
      {second ? (
        <>
          {/* The space joins the lines where a narrow screen hides the break. */} <br />
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
  const shown = useShownControls();
  return (
    <header className="header">
      <div className="header-row">
        <h1 title="Job claims, leases and fencing on a real Postgres (PGlite) in your browser">Lease Lab</h1>
        <div className="settings">
          <ScenarioPicker />
          {shown.tools ? <ScenarioEditorButton /> : null}
          {shown.strategy ? <StrategyPicker /> : null}
          {shown.fencing ? <FencingSwitch /> : null}
        </div>
        <div className="header-tools">
          <OfflineIndicator />
          <TourButton />
          <button type="button" onClick={showLesson}>
            Lesson ↓
          </button>
          <AllControlsSwitch />
          {shown.tools ? (
            <>
              <ExportMenu />
              <ThemeToggle />
              <button type="button" className="icon-button" onClick={() => setHelpOpen(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
                ?
              </button>
            </>
          ) : null}
        </div>
      </div>
      <Summary />
    </header>
  );
}
