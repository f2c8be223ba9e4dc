/**
 * The page, once the engine's worker is on its way (src/main.tsx): the store, its links to the URL and
 * localStorage, and React. All of this runs once per page load, outside React, so StrictMode's double
 * effects can never start a second Postgres.
 */
import { StrictMode, startTransition } from 'react';
import type { createRoot as CreateRoot } from 'react-dom/client';
import { followConnection, saveOfflineCopy } from './offline/status';
import { createLabStore } from './store/lab-store';
import type { StorageLike } from './store/persist';
import { whenQuiet } from './store/quiet';
import { LabProvider } from './store/react';
import { connectOutside } from './store/sync';
import { trailingCopy } from './store/trailing';
import { App } from './ui/App';
import type { WorkerEngine } from './worker/client';

function localStorageOrNull(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Starts the store and renders the page with React DOM's createRoot (main.tsx loads it apart); returns what undoes the links to the outside (for hot reload). */
export function startPage(engine: WorkerEngine, createRoot: typeof CreateRoot): () => void {
  const storage = localStorageOrNull();
  const store = createLabStore({ engine, storage });
  const disconnectOutside = connectOutside(store, window, storage);
  // What the panels beside the timeline read: the store, one task later, so a step's mark is drawn first.
  const panels = trailingCopy(store);
  const disconnect = () => {
    disconnectOutside();
    panels.stop();
  };
  void store.getState().start(window.location.hash);

  // The page's one readiness signal, for benchmarks (npm run bench) and tests: the first step can run.
  const unsubscribeReady = store.subscribe((state) => {
    if (!state.loaded || state.enginePhase !== 'ready') return;
    document.documentElement.dataset.labReady = 'true';
    unsubscribeReady();
    // The offline copy (a built app only; the dev server has none) is fetched once Postgres is up, so
    // it never competes with the start, and in the first pause in the learner's steps (store/quiet.ts),
    // so it never slows the first ones down; by then most files are in the HTTP cache anyway.
    if (import.meta.env.PROD && 'serviceWorker' in navigator) whenQuiet(store, () => void saveOfflineCopy(navigator.serviceWorker));
  });
  followConnection(window);

  // For the curious (and the browser tests): the store, the panels' copy of it and the engine, from the
  // developer console. The page shows a state in full once `panels.getState() === store.getState()`.
  (window as unknown as { leaseLab: unknown }).leaseLab = { store, panels: panels.store, engine };

  const container = document.getElementById('root');
  if (container) {
    const root = createRoot(container);
    // A transition: React renders the lab in slices of a few milliseconds, not one long task, while
    // index.html's header stays on screen until the whole lab is ready to replace it.
    startTransition(() =>
      root.render(
        <StrictMode>
          <LabProvider store={store} panels={panels.store}>
            <App />
          </LabProvider>
        </StrictMode>,
      ),
    );
  }
  return disconnect;
}
