/** The thin React binding: the store comes from context, components select the slice they read. */
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { LabStore } from './lab-store';
import type { LabState } from './types';

interface LabStores {
  store: LabStore;
  /** The panels' copy of it, one task behind (trailing.ts). */
  panels: StoreApi<LabState>;
}

const LabContext = createContext<LabStores | null>(null);

/** `panels`: the copy the panels beside the timeline read (trailing.ts); the store itself when left out. */
export function LabProvider({ store, panels, children }: { store: LabStore; panels?: StoreApi<LabState>; children?: ReactNode }) {
  const stores = useMemo(() => ({ store, panels: panels ?? store }), [store, panels]);
  return <LabContext.Provider value={stores}>{children}</LabContext.Provider>;
}

function useStores(): LabStores {
  const stores = useContext(LabContext);
  if (!stores) throw new Error('useLab must be used inside <LabProvider>');
  return stores;
}

export function useLabStore(): LabStore {
  return useStores().store;
}

/** Reads one value (or a stable reference) from the store; re-renders only when it changes. */
export function useLab<T>(selector: (state: LabState) => T): T {
  return useStore(useStores().store, selector);
}

/**
 * Like useLab, from the copy that follows the store one task later (trailing.ts): for what is shown
 * beside the timeline, so that a step's mark reaches the page first. Never for an input's own value.
 */
export function usePanelLab<T>(selector: (state: LabState) => T): T {
  return useStore(useStores().panels, selector);
}
