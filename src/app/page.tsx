/**
 * The page, once the engine's worker is on its way (src/main.tsx): the composition root. It builds every
 * store the page has (the lab's, the panels' trailing copy, the explorer's, the backpressure view's, the
 * console's history, the lesson's progress) on the
 * engines it is given or starts, links them to the URL and localStorage, and hands them to React through
 * context. All of this runs once per page load, outside React, so StrictMode's double effects can never
 * start a second Postgres; no component makes a store or a Web Worker.
 */
import { StrictMode, startTransition } from 'react';
import type { createRoot as CreateRoot } from 'react-dom/client';
import { startWebWorkerExplorer } from '../explorer/spawn';
import { followConnection, saveOfflineCopy } from '../offline/status';
import { backpressureOnLabClient } from '../store/backpressure-client';
import { connectBackpressureOutside, createBackpressureStore } from '../store/backpressure-store';
import { createHistoryStore } from '../store/console-history';
import { createExplorerStore } from '../store/explorer-store';
import { createLabStore } from '../store/lab-store';
import type { StorageLike } from '../store/persist';
import type { ProgressStore } from '../store/progress-store';
import { whenQuiet } from '../store/quiet';
import { declareReadyWhenDrawn, windowFrames } from './ready';
import { LabProvider } from '../store/react';
import { navigationKind, restoreLeftAddress } from '../store/left-address';
import { connectOutside } from '../store/sync';
import { trailingCopy } from '../store/trailing';
import { App } from '../ui/App';
import { isEmbedAddress } from '../ui/embed/address';
import { storageAfterFirstAct } from '../store/gated-storage';
import { BackpressureContext } from '../ui/backpressure/context';
import { ConsoleHistoryContext } from '../ui/console/context';
import { ExplorerContext } from '../ui/explorer/context';
import { type ProgressLoader, ProgressLoaderContext } from '../ui/lesson/useLessonProgress';
import type { WebWorkerLabClient } from '../webworker/client';

function localStorageOrNull(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function sessionStorageOrNull(): StorageLike | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** The lesson progress store, made on first load(): its module reads the lesson's content, which the page's first chunk leaves out. */
function progressLoader(): ProgressLoader & { store: ProgressStore | null } {
  let loading: Promise<ProgressStore | null> | null = null;
  const loader = {
    store: null as ProgressStore | null,
    load() {
      loading ??= import('../store/progress-store').then(
        ({ browserStorage, createProgressStore }) => {
          loader.store = createProgressStore({ storage: browserStorage() });
          return loader.store;
        },
        // A dropped connection: the lesson says so in its place. The answer stays (the lesson reads the same
        // promise on every render), so a reload asks again.
        () => null,
      );
      return loading;
    },
  };
  return loader;
}

/** Starts the stores and renders the page with React DOM's createRoot (main.tsx loads it apart); returns what undoes the links to the outside (for hot reload). */
export function startPage(engine: WebWorkerLabClient, createRoot: typeof CreateRoot): () => void {
  // Embedded in another page (?embed): nothing is kept in the learner's browser until they act in the frame.
  const embedded = isEmbedAddress(window.location.search);
  const storage = embedded ? storageAfterFirstAct(localStorageOrNull(), window) : localStorageOrNull();
  const tab = embedded ? storageAfterFirstAct(sessionStorageOrNull(), window) : sessionStorageOrNull();
  // Before anything reads the address: a reload that began before the lab's last write of it.
  restoreLeftAddress(window, tab, navigationKind(window));
  const store = createLabStore({ lab: engine, storage });
  const outside = connectOutside(store, window, storage, tab);
  // What the panels beside the timeline read: the store, one task later, so a step's mark is drawn first.
  const panels = trailingCopy(store);
  // The explorer plays on a Web Worker of its own, started on the first exploration, not with the page.
  const explorer = createExplorerStore(startWebWorkerExplorer());
  // The backpressure view plays on the lab's own engine worker (one Postgres per tab) and follows the
  // address from the start: a link to it opens it.
  const backpressure = createBackpressureStore({ client: () => backpressureOnLabClient(() => engine), frame: (callback) => requestAnimationFrame(callback) });
  const disconnectBackpressure = connectBackpressureOutside(backpressure, window);
  // What the learner keeps besides their place: the console's history, and the lesson's progress (its
  // storage probed, so blocked or full storage is told apart from empty), made once the lesson's code is in.
  const history = createHistoryStore(storage);
  const progress = progressLoader();
  const disconnect = () => {
    outside.disconnect();
    stopReady();
    disconnectBackpressure();
    panels.stop();
    explorer.getState().cancel();
  };
  void store.getState().start(window.location.hash);

  // The page's one readiness signal, for benchmarks (npm run bench) and tests: the first step can run,
  // and the page has drawn it (app/ready.ts), so a click at that moment runs at once.
  const stopReady = declareReadyWhenDrawn({
    store,
    panels: panels.store,
    afterWrites: outside.afterWrites,
    frames: windowFrames(window),
    declare: () => {
      document.documentElement.dataset.labReady = 'true';
      // The offline copy (a built app only; the dev server has none) is fetched once the lab is ready, so
      // it never competes with the start, and in the first pause in the learner's steps (store/quiet.ts),
      // so it never slows the first ones down; by then most files are in the HTTP cache anyway.
      // Not for an embedded lab: it keeps nothing in the learner's browser (store/gated-storage.ts).
      if (import.meta.env.PROD && 'serviceWorker' in navigator && !embedded) whenQuiet(store, () => void saveOfflineCopy(navigator.serviceWorker));
    },
  });
  followConnection(window);

  // For the curious (and the browser tests): every store, the panels' copy of the lab's and the engine,
  // from the developer console. The page shows a state in full once `panels.getState() === store.getState()`.
  (window as unknown as { leaseLab: unknown }).leaseLab = { store, panels: panels.store, engine, explorer, backpressure, history, progress };

  const container = document.getElementById('root');
  if (container) {
    const root = createRoot(container);
    // A transition: React renders the lab in slices of a few milliseconds, not one long task, while
    // index.html's header stays on screen until the whole lab is ready to replace it.
    startTransition(() =>
      root.render(
        <StrictMode>
          <LabProvider store={store} panels={panels.store}>
            <ExplorerContext.Provider value={explorer}>
              <BackpressureContext.Provider value={backpressure}>
                <ConsoleHistoryContext.Provider value={history}>
                  <ProgressLoaderContext.Provider value={progress}>
                    <App embedded={embedded} />
                  </ProgressLoaderContext.Provider>
                </ConsoleHistoryContext.Provider>
              </BackpressureContext.Provider>
            </ExplorerContext.Provider>
          </LabProvider>
        </StrictMode>,
      ),
    );
  }
  return disconnect;
}
