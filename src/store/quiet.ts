/**
 * Work the page does once the lab has started (the panels under the lab, the SQL console's code, the
 * offline copy) waits for a pause in the learner's steps. Each piece holds the main thread for tens of
 * milliseconds (a chunk to evaluate, a render to commit), or the whole machine (the offline copy
 * downloads Postgres again into the cache); a step clicked while it ran took several times as long. The
 * first steps, often taken at once, get the machine; the work goes in the first quiet moment.
 */
import type { StoreApi } from 'zustand/vanilla';

/** A pause this long with nothing changing in the lab counts as quiet. */
const QUIET_MS = 700;
/** Waits no longer than this, so a learner who keeps stepping still gets the panels and the copy. */
const QUIET_AT_MOST_MS = 4000;

/** Calls `callback` once `store` has not changed for `quietMs` (or `atMostMs` have passed); returns a cancel. */
export function whenQuiet<S>(store: StoreApi<S>, callback: () => void, quietMs = QUIET_MS, atMostMs = QUIET_AT_MOST_MS): () => void {
  let done = false;
  let quietTimer = setTimeout(fire, quietMs);
  const capTimer = setTimeout(fire, atMostMs);
  const unsubscribe = store.subscribe(() => {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(fire, quietMs);
  });
  function stop(): void {
    done = true;
    clearTimeout(quietTimer);
    clearTimeout(capTimer);
    unsubscribe();
  }
  function fire(): void {
    if (done) return;
    stop();
    callback();
  }
  return stop;
}
