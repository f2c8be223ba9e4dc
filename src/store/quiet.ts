/**
 * Work the page does once the lab has started (the panels under the lab, the SQL console's code, the
 * offline copy) waits for a pause in the learner's steps. Each piece holds the main thread for tens of
 * milliseconds (a chunk to evaluate, a render to commit), or the whole machine (the offline copy
 * downloads Postgres again into the cache); a step clicked while it ran took several times as long. The
 * first steps, often taken at once, get the machine; the work goes in the first quiet moment.
 */
import type { StoreApi } from 'zustand/vanilla';

/** A pause this long with nothing changing in the lab, and no request of the learner's under way, counts as quiet. */
const QUIET_MS = 700;
/** Waits no longer than this (then for the request under way to answer), so a learner who keeps stepping still gets the panels and the copy. */
const QUIET_AT_MOST_MS = 4000;

/**
 * Calls `callback` once `store` has not changed for `quietMs` with no request pending (or `atMostMs` have
 * passed and no request is pending); returns a cancel. A step still under way is not a pause however
 * long it takes: on a busy machine a first step can take longer than `quietMs`, and what waits for the
 * pause would then take the main thread just before that step is drawn.
 */
export function whenQuiet<S extends { pending: number }>(
  store: StoreApi<S>,
  callback: () => void,
  quietMs = QUIET_MS,
  atMostMs = QUIET_AT_MOST_MS,
): () => void {
  let done = false;
  let waitedLongEnough = false;
  let quietTimer: ReturnType<typeof setTimeout> | undefined;
  const busy = () => store.getState().pending > 0;
  const restartQuiet = () => {
    clearTimeout(quietTimer);
    quietTimer = busy() ? undefined : setTimeout(fire, quietMs);
  };
  const capTimer = setTimeout(() => {
    waitedLongEnough = true;
    if (!busy()) fire();
  }, atMostMs);
  const unsubscribe = store.subscribe(() => {
    if (waitedLongEnough && !busy()) fire();
    else restartQuiet();
  });
  restartQuiet();
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
