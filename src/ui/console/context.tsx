/** The console's history store, made once per page by the composition root (src/app/page.tsx). */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { HistoryState, HistoryStore } from '../../store/console-history';

export const ConsoleHistoryContext = createContext<HistoryStore | null>(null);

export function useConsoleHistory<T>(selector: (state: HistoryState) => T): T {
  const store = useContext(ConsoleHistoryContext);
  if (!store) throw new Error('useConsoleHistory must be used inside <ConsoleHistoryContext.Provider>');
  return useStore(store, selector);
}
