/** The thin React binding: the store comes from context, components select the slice they read. */
import { createContext, type ReactNode, useContext } from 'react';
import { useStore } from 'zustand';
import type { LabStore } from './lab-store';
import type { LabState } from './types';

const LabContext = createContext<LabStore | null>(null);

export function LabProvider({ store, children }: { store: LabStore; children: ReactNode }) {
  return <LabContext.Provider value={store}>{children}</LabContext.Provider>;
}

export function useLabStore(): LabStore {
  const store = useContext(LabContext);
  if (!store) throw new Error('useLab must be used inside <LabProvider>');
  return store;
}

/** Reads one value (or a stable reference) from the store; re-renders only when it changes. */
export function useLab<T>(selector: (state: LabState) => T): T {
  return useStore(useLabStore(), selector);
}
