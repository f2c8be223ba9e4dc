/**
 * The SQL console's panel: a <details> whose body (ConsoleBody: the editor, the examples, the answers)
 * is loaded and rendered when the panel is first opened, and stays mounted after, so what the learner
 * typed survives closing and opening it. Once the lab has started, the body's code is fetched while the
 * page is idle, so the first opening does not wait for the network.
 */
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { useLab } from '../../store/react';
import { useLabSettled, whenIdle } from '../deferred';
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

export function SqlConsole() {
  const consoleOpened = useLab((s) => s.consoleOpened);
  const settled = useLabSettled();
  /** Chosen once, at the first opening, and kept: another component type would remount it and lose the text. */
  const [Body, setBody] = useState<ComponentType | null>(null);

  useEffect(() => {
    if (settled && !Body) return whenIdle(() => void loadBody().catch(() => undefined), 2000);
  }, [settled, Body]);

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
