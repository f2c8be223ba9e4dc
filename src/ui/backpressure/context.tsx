/**
 * The backpressure view's store, made once per page by the composition root (src/app/page.tsx) and handed
 * to the view through this context.
 */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { BackpressureState, BackpressureStore } from '../../store/backpressure-store';

export const BackpressureContext = createContext<BackpressureStore | null>(null);

export function useBackpressureStore(): BackpressureStore {
  const store = useContext(BackpressureContext);
  if (!store) throw new Error('useBackpressure must be used inside <BackpressureContext.Provider>');
  return store;
}

export function useBackpressure<T>(selector: (state: BackpressureState) => T): T {
  return useStore(useBackpressureStore(), selector);
}
