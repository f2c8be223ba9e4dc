/**
 * The explorer's own small store: what is being explored, how far it got, and what it found. Separate
 * from the lab's store on purpose: exploring runs on its own Postgres and never changes the learner's
 * trace; only a witness the learner opens goes through the lab (as a link would).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Exploration, ExploreProgress } from '../sim/exploration';
import { CancelledError, type ExplorerRunner } from '../explorer/client';
import type { Settings } from '../sim/types';

export type ExplorerPhase = 'idle' | 'starting' | 'running' | 'done' | 'cancelled' | 'failed';

interface ExplorerTarget {
  scenarioId: string;
  settings: Settings;
}

export interface ExplorerState {
  phase: ExplorerPhase;
  /** What the last exploration was asked to explore (the result belongs to it, not to the lab's current view). */
  target: ExplorerTarget | null;
  progress: ExploreProgress | null;
  result: Exploration | null;
  /** Wall time of the finished exploration, in milliseconds. */
  ms: number | null;
  error: string | null;
  explore(target: ExplorerTarget): Promise<void>;
  cancel(): void;
}

export type ExplorerStore = StoreApi<ExplorerState>;

export function createExplorerStore(runner: ExplorerRunner): ExplorerStore {
  /** Which exploration is current: answers of a replaced or cancelled one are ignored. */
  let run = 0;
  return createStore<ExplorerState>()((set, get) => ({
    phase: 'idle',
    target: null,
    progress: null,
    result: null,
    ms: null,
    error: null,

    async explore(target) {
      const mine = ++run;
      set({ phase: 'running', target, progress: null, result: null, ms: null, error: null });
      try {
        const { exploration, ms } = await runner.explore(target.scenarioId, target.settings, (event) => {
          if (mine !== run) return;
          if (event.kind === 'starting') set({ phase: 'starting' });
          else set({ phase: 'running', progress: event.progress });
        });
        if (mine === run) set({ phase: 'done', result: exploration, ms });
      } catch (error) {
        if (mine !== run) return;
        if (error instanceof CancelledError) set({ phase: 'cancelled' });
        else set({ phase: 'failed', error: error instanceof Error ? error.message : String(error) });
      }
    },

    cancel() {
      const { phase } = get();
      if (phase !== 'starting' && phase !== 'running') return;
      run += 1;
      runner.cancel();
      set({ phase: 'cancelled' });
    },
  }));
}
