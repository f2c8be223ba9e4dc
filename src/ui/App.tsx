import { lazy, Suspense } from 'react';
import { BackpressureEntry } from './BackpressureEntry';
import { useAfterStart, useNextFrame } from './deferred';
import { EngineBanner } from './EngineBanner';
import { Header } from './Header';
import { HelpDialog } from './HelpDialog';
import { Notices } from './Notices';
import { Outcome } from './Outcome';
import { RunsTable } from './RunsTable';
import { StepDetails } from './StepDetails';
import { TimelinePanel } from './TimelinePanel';
import { SqlConsole } from './console/SqlConsole';
import { Toolbar } from './Toolbar';
import { useBackpressureShown } from './useBackpressureShown';
import { useKeyboard } from './useKeyboard';
import { WorkerCards } from './WorkerCards';

// Each in a chunk of its own, fetched when first shown: the first render and the first script are the lab's.
const BackpressureView = lazy(() => import('./backpressure/BackpressureView').then((module) => ({ default: module.BackpressureView })));
const ExplorerPanel = lazy(() => import('./explorer/ExplorerPanel').then((module) => ({ default: module.ExplorerPanel })));
const LessonArea = lazy(() => import('./LessonArea').then((module) => ({ default: module.LessonArea })));

/** The address the page was opened at: the lab rewrites it once loaded, and a lesson link in it is for the lesson, which comes later. */
const ADDRESS_AT_START = window.location.hash;

export function App() {
  return useBackpressureShown() ? (
    <Suspense fallback={<p className="lazy-loading">Loading the backpressure lab…</p>}>
      <BackpressureView />
    </Suspense>
  ) : (
    <RaceLab />
  );
}

function RaceLab() {
  useKeyboard();
  const stage = useNextFrame();
  return (
    <>
      <div className="app" id="lab-top">
        <Header />
        <Toolbar />
        <EngineBanner />
        <Notices />
        {/* The stage a frame after the header: two shorter tasks for the browser to lay out, not one long one. */}
        <main className="stage">
          {stage ? (
            <>
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
            </>
          ) : null}
        </main>
        {stage ? <HelpDialog /> : null}
      </div>
      {/* Below the one-screen lab, so the lab keeps its height; scroll down to explore and to learn. */}
      <BackpressureEntry />
      <BelowTheLab />
    </>
  );
}

/** The explorer and the lesson, rendered once the lab has started (both at once, so neither moves the other). */
function BelowTheLab() {
  const shown = useAfterStart(ADDRESS_AT_START.startsWith('#lesson/'));
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ExplorerPanel />
      <LessonArea linkAtStart={ADDRESS_AT_START} />
    </Suspense>
  );
}
