/**
 * A part of the page in a chunk of its own. `fetch()` loads its code (once) without showing it, so a
 * part shown later does not need the network then: the page may have lost its origin meanwhile (a
 * dropped connection, a live-mode bridge that stopped). If the code cannot be had, the part says so in
 * its place and the rest of the page goes on; a rejected lazy() would take the whole page down.
 */
import { type ComponentType, lazy } from 'react';

export interface LazyPanel<P extends object> {
  Panel: ComponentType<P>;
  fetch: () => Promise<unknown>;
}

export function lazyPanel<P extends object>(what: string, load: () => Promise<ComponentType<P>>): LazyPanel<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const fetch = () => {
    loading ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => ({ default: () => <LoadFailed what={what} error={error} /> }),
    );
    return loading;
  };
  return { Panel: lazy(fetch), fetch };
}

function LoadFailed({ what, error }: { what: string; error: unknown }) {
  const reason = error instanceof Error ? error.message : String(error);
  return (
    <output className="lazy-loading">
      {what} could not be loaded ({reason}). Reload the page when the connection is back.
    </output>
  );
}
