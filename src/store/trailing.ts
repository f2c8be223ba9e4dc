/**
 * A copy of a store that catches up with it one task later.
 *
 * A step's reply from the engine changes the store once; whatever reads the store renders in that same
 * task. The timeline reads the store itself, so its new mark is in the page as soon as that task ends.
 * The panels beside it (the outcome, the worker cards, the runs table, the step details, the controls
 * that follow the cursor) read this copy, and render in the task after: the browser can paint the
 * timeline between the two. Any number of changes within one task make one catch-up.
 *
 * Controls whose value the learner types or drags (selects, the position slider) must read the store
 * itself: a controlled input that lags its own change snaps back for a moment.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';

/** Runs a callback in a later task. */
export type Later = (callback: () => void) => void;

/** A task of its own, as soon as the browser has one free: not a timer (timers may be throttled or clamped). */
export function messageChannelTasks(): Later {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (callback) => {
    waiting.push(callback);
    channel.port2.postMessage(null);
  };
}

export interface Trailing<S> {
  store: StoreApi<S>;
  /** Stops following the source; a catch-up already scheduled does nothing. */
  stop: () => void;
}

export function trailingCopy<S>(source: StoreApi<S>, later: Later = messageChannelTasks()): Trailing<S> {
  const copy = createStore<S>()(() => source.getState());
  let scheduled = false;
  let stopped = false;
  const catchUp = () => {
    scheduled = false;
    if (!stopped) copy.setState(source.getState(), true);
  };
  const unsubscribe = source.subscribe(() => {
    if (scheduled) return;
    scheduled = true;
    later(catchUp);
  });
  return {
    store: copy,
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}
