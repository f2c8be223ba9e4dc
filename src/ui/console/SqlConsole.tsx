/**
 * The SQL console's panel: a <details> whose body (ConsoleBody: the editor, the examples, the answers)
 * is loaded and rendered when the panel is first opened, and stays mounted after, so what the learner
 * typed survives closing and opening it. In the first pause after the lab has started, the body's code
 * is fetched while the page is idle, so the first opening does not wait for the network (and the first
 * step does not wait for its evaluation).
 */
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { useLab } from '../../store/react';
import { useWhenSettledAndQuiet } from '../deferred';
import './console.css';

type BodyModule = typeof import('./ConsoleBody');

let bodyModule: BodyModule | null = null;
let bodyLoading: Promise<BodyModule> | null = null;

function loadBody(): Promise<BodyModule> {
  bodyLoading ??= import('./ConsoleBody').then((module) => {
    bodyModule = module;
    return module;
  });
  return bodyLoading;
}

const LazyBody = lazy(() => loadBody().then((module) => ({ default: module.ConsoleBody })));

/** Fetches the body's code ahead of the first opening; a failure shows when it is opened. */
function preloadBody(): void {
  void loadBody().catch(() => undefined);
}

export function SqlConsole() {
  const consoleOpened = useLab((s) => s.consoleOpened);
  /** Chosen once, at the first opening, and kept: another component type would remount it and lose the text. */
  const [Body, setBody] = useState<ComponentType | null>(null);

  useWhenSettledAndQuiet(preloadBody, 2000);

  return (
    <details
      className="console"
      onToggle={(event) => {
        if (!event.currentTarget.open) return;
        // Loaded already (the usual case): no fallback flashes as the panel opens.
        setBody((chosen: ComponentType | null) => chosen ?? bodyModule?.ConsoleBody ?? LazyBody);
        consoleOpened();
      }}
    >
      <summary>SQL console</summary>
      {Body ? (
        <Suspense fallback={<p className="console-note">Loading the console…</p>}>
          <Body />
        </Suspense>
      ) : null}
    </details>
  );
}
