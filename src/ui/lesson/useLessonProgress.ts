/** Subscribes a component to the lesson's progress store. */
import { useSyncExternalStore } from 'react';
import { defaultProgressStore, type ProgressState, type ProgressStore } from '../../lessons/progress-store';

export function useLessonProgress(store?: ProgressStore): { state: ProgressState; store: ProgressStore } {
  const active = store ?? defaultProgressStore();
  const state = useSyncExternalStore(active.subscribe, active.getState, active.getState);
  return { state, store: active };
}
