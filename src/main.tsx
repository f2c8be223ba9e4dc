/**
 * The page's first script, kept small on purpose: it starts the engine's Web Worker (so Postgres boots
 * while the rest of the page downloads and React paints), then loads the page itself (src/page.tsx).
 * With React, the store and the lab in this first script, the worker would start only after all of it
 * had been downloaded, parsed and run.
 */
import { startWorkerEngine } from './worker/spawn';
import './styles/app.css';

const engine = startWorkerEngine();

// React DOM is asked for on its own as well, so the browser runs it in a task of its own before the
// page's code: evaluated together, the two would hold the main thread for one task twice as long.
void import('react-dom/client');
import('./page')
  .then(({ startPage }) => {
    const stop = startPage(engine);
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
