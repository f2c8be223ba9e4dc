/**
 * "Every schedule": plays every interleaving of the lab's scenario under its strategy and fencing (or a
 * seeded sample of a large one) in a Web Worker with its own Postgres, and shows how they end.
 */
import { useEffect } from 'react';
import { useExplorerStore } from './context';
import { ExplorerControls } from './ExplorerControls';
import { ExplorerLiveNote } from './ExplorerLiveNote';
import { ExplorerProgress } from './ExplorerProgress';
import { ExplorerResult } from './ExplorerResult';
import { ExplorerStatus } from './ExplorerStatus';

export function ExplorerPanel() {
  const store = useExplorerStore();
  // Leaving the page (or a hot reload) ends an exploration still running.
  useEffect(() => () => store.getState().cancel(), [store]);
  return (
    <section className="explorer" aria-labelledby="explorer-heading">
      <h2 id="explorer-heading" className="explorer-heading">
        Every schedule
      </h2>
      <ExplorerControls />
      <ExplorerLiveNote />
      <ExplorerStatus />
      <ExplorerProgress />
      <ExplorerResult />
    </section>
  );
}
