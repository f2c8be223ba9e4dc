import { Suspense, useCallback } from 'react';
import { BackpressureEntry } from './BackpressureEntry';
import { useAfterStart, useFramesDrawn, useWhenSettledAndQuiet } from './deferred';
import { EngineBanner } from './EngineBanner';
import { Header } from './Header';
import { LabErrorBoundary } from './LabErrorBoundary';
import { lazyPanel } from './lazyPanel';
import { HelpDialog } from './HelpDialog';
import { LevelSlot } from './level/LevelSlot';
import { useProgressLoader } from './lesson/useLessonProgress';
import { Notices } from './Notices';
import { Outcome } from './Outcome';
import { RunsTable } from './RunsTable';
import { StepDetails } from './StepDetails';
import { TimelinePanel } from './TimelinePanel';
import { SqlConsole } from './console/SqlConsole';
import { StartCard } from './StartCard';
import { Toolbar } from './Toolbar';
import { useBackpressureShown } from './useBackpressureShown';
import { useKeyboard } from './useKeyboard';
import { PHONE_QUERY, useMediaQuery } from './hooks';
import { useLab } from '../store/react';
import { WorkerCards } from './WorkerCards';
import { YourSqlSlot } from './your-sql/YourSqlSlot';

// Each in a chunk of its own: the first render and the first script are the lab's. The panels below the
// lab are fetched and shown in the first pause after it has started (deferred.ts).
const { Panel: BackpressureView } = lazyPanel('The backpressure lab', () =>
  import('./backpressure/BackpressureView').then((module) => module.BackpressureView),
);
const explorer = lazyPanel('The interleaving explorer', () => import('./explorer/ExplorerPanel').then((module) => module.ExplorerPanel));
const lesson = lazyPanel('The lesson', () => import('./LessonArea').then((module) => module.LessonArea));
const tour = lazyPanel('The tour', () => import('./lesson/TourPanel').then((module) => module.TourPanel));
// A page opened at ?embed shows only this, so it is fetched at once (App's first render), and a full page never fetches it.
const { Panel: EmbedLab } = lazyPanel('The embedded lab', () => import('./embed/EmbedLab').then((module) => module.EmbedLab));
const ExplorerPanel = explorer.Panel;
const TourPanel = tour.Panel;
const LessonArea = lesson.Panel;

function fetchPanelsBelow(): void {
  void explorer.fetch();
  void lesson.fetch();
  void tour.fetch();
}

/** The address the page was opened at: the lab rewrites it once loaded, and a lesson link in it is for the lesson, which comes later. */
const ADDRESS_AT_START = window.location.hash;

/** The page: the whole lab, or (`embedded`, the address has ?embed) the lab without the page's chrome. */
export function App({ embedded = false }: { embedded?: boolean }) {
  const backpressure = useBackpressureShown();
  if (embedded)
    return (
      <Suspense fallback={<p className="lazy-loading">Loading the lab…</p>}>
        <EmbedLab />
      </Suspense>
    );
  return backpressure ? (
    <Suspense fallback={<p className="lazy-loading">Loading the backpressure lab…</p>}>
      <BackpressureView />
    </Suspense>
  ) : (
    <LabErrorBoundary>
      <RaceLab />
    </LabErrorBoundary>
  );
}

function RaceLab() {
  useKeyboard();
  // The lab comes in five frames, so that no one layout holds the main thread for long while Postgres
  // starts in the worker (on two cores, the page gets a quarter to half of one then): the header, the
  // toolbar, the timeline, the worker cards and runs table under it, and the step details beside it.
  const drawn = useFramesDrawn(4);
  const touring = useLab((s) => s.tourOpen);
  // On a phone the timeline is on the first screen: only the playback (Step) comes before it, the other
  // controls under it.
  const phone = useMediaQuery(PHONE_QUERY);
  return (
    <>
      <div className={touring ? 'app is-touring' : 'app'} id="lab-top">
        <Header />
        {drawn >= 1 ? (
          <>
            <StartCard />
            {phone ? null : <Toolbar />}
            <EngineBanner />
            <Notices />
            <YourSqlSlot />
          </>
        ) : null}
        <main className="stage">
          {drawn >= 2 ? (
            <section className="stage-main" aria-label="Timeline and state">
              {phone ? <Toolbar part="playback" /> : null}
              <Outcome />
              <LevelSlot />
              <TimelinePanel />
              {phone ? <Toolbar part="rest" /> : null}
              {drawn >= 3 ? (
                <>
                  <WorkerCards />
                  <RunsTable />
                </>
              ) : null}
            </section>
          ) : null}
          {drawn >= 4 ? (
            <div className="side">
              {touring ? (
                <Suspense fallback={<p className="lazy-loading">Loading the tour…</p>}>
                  <TourPanel />
                </Suspense>
              ) : null}
              <StepDetails />
              <SqlConsole />
            </div>
          ) : null}
        </main>
        {drawn >= 4 ? <HelpDialog /> : null}
      </div>
      {/* Below the one-screen lab, so the lab keeps its height; scroll down to explore and to learn. */}
      <BackpressureEntry />
      <BelowTheLab />
    </>
  );
}

/** The explorer and the lesson, rendered once the lab has started (both at once, so neither moves the other). */
function BelowTheLab() {
  const progress = useProgressLoader();
  const fetchBelow = useCallback(() => {
    fetchPanelsBelow();
    // The lesson's progress store, in a chunk beside the lesson's: fetched with it, not when it is shown.
    void progress.load();
  }, [progress]);
  // In the first pause after the start, as the panels are shown: evaluating their chunks at the first idle
  // moment held the main thread just when a learner clicks Step for the first time.
  useWhenSettledAndQuiet(fetchBelow);
  const shown = useAfterStart(ADDRESS_AT_START.startsWith('#lesson/'));
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ExplorerPanel />
      <LessonArea linkAtStart={ADDRESS_AT_START} />
    </Suspense>
  );
}
