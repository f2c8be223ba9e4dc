/**
 * Subscribes a component to the lesson's progress store: the one the composition root (src/app/page.tsx)
 * hands down through ProgressContext, unless the component is given another (tests render views with their own).
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ProgressState, ProgressStore } from '../../store/progress-store';

export const ProgressContext = createContext<ProgressStore | null>(null);

export function useLessonProgress(store?: ProgressStore): { state: ProgressState; store: ProgressStore } {
  const provided = useContext(ProgressContext);
  const active = store ?? provided;
  if (!active) throw new Error('useLessonProgress needs a progress store: inside <ProgressContext.Provider>, or given one');
  const state = useSyncExternalStore(active.subscribe, active.getState, active.getState);
  return { state, store: active };
}
