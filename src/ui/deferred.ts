/**
 * What the page shows after the lab: the panels below it and the SQL console's body load once the lab
 * has started, so the first render (and the first paint) is the one-screen lab alone; and then in the
 * first pause in the learner's steps (store/quiet.ts), so they never slow the first steps down.
 */
import { startTransition, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { whenQuiet } from '../store/quiet';
import { useLab, useLabStore } from '../store/react';

/** A start slower than this (an old phone, a busy machine) shows the panels anyway: the lesson reads without Postgres. */
const SLOW_START_MS = 5000;

/** Runs `callback` when the main thread is next idle (or within `timeoutMs`); returns a cancel. */
function whenIdle(callback: () => void, timeoutMs = 500): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(callback, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}

/** Has the lab loaded its first trace (or failed to start)? Whatever waits for it can then take the main thread. */
function useLabSettled(): boolean {
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
 * Runs `callback` once the lab has settled, then had a quiet moment (store/quiet.ts; skipped when
 * `waitForQuiet` is false), when the main thread is next idle.
 */
export function useWhenSettledAndQuiet(callback: () => void, idleTimeoutMs?: number, waitForQuiet = true): void {
  const store = useLabStore();
  const settled = useLabSettled();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the callback is the caller's, read when the moment comes
  useEffect(() => {
    if (!settled) return;
    let cancelIdle = () => {};
    const idle = () => {
      cancelIdle = whenIdle(callback, idleTimeoutMs);
    };
    let cancelQuiet = () => {};
    if (waitForQuiet) cancelQuiet = whenQuiet(store, idle);
    else idle();
    return () => {
      cancelQuiet();
      cancelIdle();
    };
  }, [store, settled, waitForQuiet]);
}

/**
 * True (for good) once the lab has settled, had a quiet moment and the main thread is next idle: for what
 * the first screen draws but the lab's start does not need, such as the timeline's zoom (a chunk of its
 * own). Not at the first idle moment after the start: a chunk evaluated then held the main thread just
 * when a learner clicks Step for the first time.
 */
export function useSettledAndQuiet(): boolean {
  const [done, setDone] = useState(false);
  const mark = useCallback(() => setDone(true), []);
  useWhenSettledAndQuiet(mark);
  return done;
}

/**
 * True once the lab has settled into a pause and the main thread is idle (or SLOW_START_MS have passed,
 * or the learner asked for the lesson or scrolled down to look for it). `cameForIt`: the page was opened
 * at a link into what it reveals, so it comes without waiting for a pause. It turns true inside a
 * transition, so React renders what it reveals in slices that a click can interrupt.
 */
export function useAfterStart(cameForIt = false): boolean {
  const settled = useLabSettled();
  const asked = useSyncExternalStore(subscribeAsk, () => askedFor);
  const [after, setAfter] = useState(false);
  const reveal = useCallback(() => startTransition(() => setAfter(true)), []);
  useWhenSettledAndQuiet(reveal, undefined, !cameForIt);
  useEffect(() => {
    if (after) return;
    window.addEventListener('scroll', reveal, { passive: true, once: true });
    const timer = settled ? undefined : setTimeout(reveal, SLOW_START_MS);
    return () => {
      window.removeEventListener('scroll', reveal);
      clearTimeout(timer);
    };
  }, [settled, after, reveal]);
  return after || asked;
}

/**
 * 0 in the first render, then 1, 2, … up to `last`, one more each time the browser has drawn a frame
 * (each rendered in a transition): what waits for frame n is laid out in a task of its own, after what
 * came before it has been drawn.
 */
export function useFramesDrawn(last: number): number {
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    if (drawn >= last) return;
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      startTransition(() => setDrawn(drawn + 1));
    };
    // After the frame's layout (a timer set from inside the frame callback); a hidden tab draws no frames.
    const frame = requestAnimationFrame(() => setTimeout(go, 0));
    const fallback = setTimeout(go, 250);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
    };
  }, [drawn, last]);
  return drawn;
}
