/**
 * What the page shows after the lab: the panels below it and the SQL console's body load once the lab
 * has started, so the first render (and the first paint) is the one-screen lab alone.
 */
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import { useLab } from '../store/react';

/** A start slower than this (an old phone, a busy machine) shows the panels anyway: the lesson reads without Postgres. */
export const SLOW_START_MS = 5000;

/** Runs `callback` when the main thread is next idle (or within `timeoutMs`); returns a cancel. */
export function whenIdle(callback: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

/** Has the lab loaded its first trace (or failed to start)? Whatever waits for it can then take the main thread. */
export function useLabSettled(): boolean {
  return useLab((s) => s.loaded || s.enginePhase === 'failed');
}

/** Set when the learner asks for something below the lab before it has been shown (the Lesson ↓ button). */
let askedFor = false;
let lessonWanted = false;
const askListeners = new Set<() => void>();
const subscribeAsk = (listener: () => void) => {
  askListeners.add(listener);
  return () => askListeners.delete(listener);
};

/** Scrolls to the lesson; before it is there, shows it at once and scrolls once it has mounted (LessonArea). */
export function showLesson(): void {
  const heading = document.getElementById('lesson-heading');
  if (heading) {
    heading.scrollIntoView({ behavior: 'smooth', block: 'start' });
    return;
  }
  lessonWanted = true;
  if (askedFor) return;
  askedFor = true;
  for (const listener of askListeners) listener();
}

/** Was the lesson asked for before it had mounted? (Answers true once.) */
export function takeLessonWish(): boolean {
  const wanted = lessonWanted;
  lessonWanted = false;
  return wanted;
}

/**
 * True once the lab has settled and the main thread is idle (or SLOW_START_MS have passed, or the learner
 * asked for the lesson). It turns true inside a transition, so React renders what it reveals in slices
 * that a click can interrupt.
 */
export function useAfterStart(): boolean {
  const settled = useLabSettled();
  const asked = useSyncExternalStore(subscribeAsk, () => askedFor);
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (after) return;
    const reveal = () => startTransition(() => setAfter(true));
    if (settled) return whenIdle(reveal);
    const timer = setTimeout(reveal, SLOW_START_MS);
    return () => clearTimeout(timer);
  }, [settled, after]);
  return after || asked;
}

/**
 * False in the first render, true once the browser has drawn a frame after it (rendered in a
 * transition): what waits for it is laid out in a task of its own.
 */
export function useNextFrame(): boolean {
  const [next, setNext] = useState(false);
  useEffect(() => {
    if (next) return;
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      startTransition(() => setNext(true));
    };
    // After the frame's layout (a timer set from inside the frame callback); a hidden tab draws no frames.
    const frame = requestAnimationFrame(() => setTimeout(go, 0));
    const fallback = setTimeout(go, 250);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
    };
  }, [next]);
  return next;
}
