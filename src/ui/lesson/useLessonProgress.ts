/**
 * Subscribes a component to the lesson's progress store: the one the composition root (src/app/page.tsx)
 * makes, handed down through ProgressContext by the lesson area, unless the component is given another
 * (tests render views with their own). The store reads the lesson's content (which ids exist), so the root
 * hands out a loader (ProgressLoaderContext) and the store's code comes in the lesson's chunk, not the page's.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ProgressState, ProgressStore } from '../../store/progress-store';

export const ProgressContext = createContext<ProgressStore | null>(null);

/** Makes the page's progress store on the first call, and gives the same promise to every call; null if its code could not be had. */
export interface ProgressLoader {
  load(): Promise<ProgressStore | null>;
}

export const ProgressLoaderContext = createContext<ProgressLoader | null>(null);

export function useProgressLoader(): ProgressLoader {
  const loader = useContext(ProgressLoaderContext);
  if (!loader) throw new Error('useProgressLoader must be used inside <ProgressLoaderContext.Provider>');
  return loader;
}

export function useLessonProgress(store?: ProgressStore): { state: ProgressState; store: ProgressStore } {
  const provided = useContext(ProgressContext);
  const active = store ?? provided;
  if (!active) throw new Error('useLessonProgress needs a progress store: inside <ProgressContext.Provider>, or given one');
  const state = useSyncExternalStore(active.subscribe, active.getState, active.getState);
  return { state, store: active };
}
