/**
 * When the page says it is ready (`data-lab-ready`, read by the benchmarks and the browser tests): once
 * the first step can run AND the page has drawn that. The store turning ready is only the start of the
 * work: React renders the lab with its first trace, the panels' copy catches up a task later and renders
 * too (store/trailing.ts), the address and the saved place are written after a paint (store/sync.ts), and
 * the browser lays out and paints it all. Measured in Chrome traces, that held the main thread for tens to
 * a couple of hundred milliseconds after the store was ready, so a click at that moment waited for all of
 * it. Declared after it, ready is when a click runs at once; the work is the same, only counted honestly.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { LabState } from '../store/types';

/** The parts of a window the signal uses: a frame to paint, and a task after it. */
interface Frames {
  requestAnimationFrame: (callback: () => void) => unknown;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

type Visible = Pick<Window, 'requestAnimationFrame' | 'setTimeout'> & {
  document: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
};

/**
 * A window's frames, except that a hidden tab (it draws no frame until it is shown) goes on at once, and a
 * tab hidden while it waits goes on then: the offline copy, saved once the page is ready, must not wait
 * for the learner to look at the tab.
 */
export function windowFrames(win: Visible): Frames {
  return {
    requestAnimationFrame: (callback) => {
      let done = false;
      const go = () => {
        if (done) return;
        done = true;
        win.document.removeEventListener('visibilitychange', onHidden);
        callback();
      };
      const onHidden = () => {
        if (win.document.visibilityState === 'hidden') go();
      };
      if (win.document.visibilityState === 'hidden') return go();
      win.document.addEventListener('visibilitychange', onHidden);
      win.requestAnimationFrame(go);
    },
    setTimeout: (callback, ms) => win.setTimeout(callback, ms),
  };
}

export interface ReadyDeps {
  store: StoreApi<LabState>;
  /** The panels' copy of the store (store/trailing.ts). */
  panels: StoreApi<LabState>;
  /** Calls back once the address and the saved place have no write waiting (store/sync.ts). */
  afterWrites: (callback: () => void) => void;
  frames: Frames;
  /** Says it: sets `data-lab-ready`. */
  declare: () => void;
}

/** The first step can run: the rule the commands read (ui/commands.ts labReady), seen from the store. */
function firstStepCanRun(state: LabState): boolean {
  return state.loaded && state.enginePhase === 'ready';
}

/**
 * Calls `declare` once, when the store first can run a step and the page has drawn that: the panels'
 * copy has caught up with the store, no address write is waiting, and a frame has been painted after
 * all of it (the task after the next animation frame). Returns a cancel.
 */
export function declareReadyWhenDrawn({ store, panels, afterWrites, frames, declare }: ReadyDeps): () => void {
  let cancelled = false;
  let stopWatching = () => {};
  const painted = () => {
    frames.requestAnimationFrame(() => {
      frames.setTimeout(() => {
        if (!cancelled) declare();
      }, 0);
    });
  };
  const caughtUp = () => {
    if (cancelled) return;
    if (panels.getState() !== store.getState()) return;
    stopWatching();
    afterWrites(() => {
      if (!cancelled) painted();
    });
  };
  const storeReady = () => {
    if (!firstStepCanRun(store.getState())) return false;
    unsubscribeStore();
    // The panels' copy catches up a task later: wait for it (it may already have).
    stopWatching = panels.subscribe(caughtUp);
    caughtUp();
    return true;
  };
  const unsubscribeStore = store.subscribe(() => void storeReady());
  storeReady();
  return () => {
    cancelled = true;
    unsubscribeStore();
    stopWatching();
  };
}
