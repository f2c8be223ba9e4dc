import { BackpressureEntry, BackpressureView } from './backpressure/BackpressureView';
import { useBackpressure } from './backpressure/context';
import { EngineBanner } from './EngineBanner';
import { ExplorerPanel } from './explorer/ExplorerPanel';
import { Header } from './Header';
import { HelpDialog } from './HelpDialog';
import { LessonArea } from './LessonArea';
import { Notices } from './Notices';
import { Outcome } from './Outcome';
import { RunsTable } from './RunsTable';
import { StepDetails } from './StepDetails';
import { TimelinePanel } from './TimelinePanel';
import { SqlConsole } from './console/SqlConsole';
import { Toolbar } from './Toolbar';
import { useKeyboard } from './useKeyboard';
import { WorkerCards } from './WorkerCards';

export function App() {
  const backpressure = useBackpressure((s) => s.active);
  return backpressure ? <BackpressureView /> : <RaceLab />;
}

function RaceLab() {
  useKeyboard();
  return (
    <>
      <div className="app" id="lab-top">
        <Header />
        <Toolbar />
        <EngineBanner />
        <Notices />
        <main className="stage">
          <section className="stage-main" aria-label="Timeline and state">
            <Outcome />
            <TimelinePanel />
            <WorkerCards />
            <RunsTable />
          </section>
          <div className="side">
            <StepDetails />
            <SqlConsole />
          </div>
        </main>
        <HelpDialog />
      </div>
      {/* Below the one-screen lab, so the lab keeps its height; scroll down to explore and to learn. */}
      <BackpressureEntry />
      <ExplorerPanel />
      <LessonArea />
    </>
  );
}
