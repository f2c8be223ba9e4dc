/**
 * The page's first script, kept small on purpose: it starts the engine's Web Worker (so Postgres boots
 * while the rest of the page downloads and React paints), then loads the page itself (src/app/page.tsx).
 * With React, the store and the lab in this first script, the worker would start only after all of it
 * had been downloaded, parsed and run.
 */
import { startWebWorkerLabClient } from './webworker/spawn';
import './styles/app.css';

const engine = startWebWorkerLabClient();

/** Resolves in a later task of the main thread: what follows it runs in a task of its own. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// React DOM and the page are fetched at once but run apart: the page does not import React DOM (it is
// handed createRoot), so the browser evaluates each in its own task, and the page starts in a third.
// While Postgres compiles in the worker, the main thread has about half the machine: one task doing all
// three held it for 60–140 ms here, long enough for a click or a key to wait.
Promise.all([import('react-dom/client'), import('./app/page')])
  .then(async ([{ createRoot }, { startPage }]) => {
    await nextTask();
    const stop = startPage(engine, createRoot);
    import.meta.hot?.dispose(() => {
      stop();
      engine.dispose();
    });
  })
  .catch((error: unknown) => {
    // The rest of the page could not be fetched (a dropped connection, a deploy in between): say so.
    document.documentElement.dataset.labReady = 'failed';
    const root = document.getElementById('root');
    if (root) root.textContent = `Lease Lab could not load: ${error instanceof Error ? error.message : String(error)}. Reload the page to try again.`;
    throw error;
  });
