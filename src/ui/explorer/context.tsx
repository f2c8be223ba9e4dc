/** The explorer's store for the components under the panel; made once per page by the composition root (src/app/page.tsx). */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ExplorerState, ExplorerStore } from '../../store/explorer-store';

export const ExplorerContext = createContext<ExplorerStore | null>(null);

export function useExplorerStore(): ExplorerStore {
  const store = useContext(ExplorerContext);
  if (!store) throw new Error('useExplorer must be used inside <ExplorerContext.Provider>');
  return store;
}

export function useExplorer<T>(selector: (state: ExplorerState) => T): T {
  return useStore(useExplorerStore(), selector);
}
