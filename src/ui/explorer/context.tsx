/** The explorer's store for the components under the panel; made once per mounted panel. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ExplorerState, ExplorerStore } from '../../store/explorer-store';

export const ExplorerContext = createContext<ExplorerStore | null>(null);

export function useExplorer<T>(selector: (state: ExplorerState) => T): T {
  const store = useContext(ExplorerContext);
  if (!store) throw new Error('useExplorer must be used inside the explorer panel');
  return useStore(store, selector);
}
