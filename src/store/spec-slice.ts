/**
 * "Your SQL"'s own schema: a spec the learner pastes, run by the engine's Web Worker on a PGlite of its own
 * (webworker/spec-host.ts) in the lab's one queue (the session's checkSpec, which reopens the learner's
 * scenario if the engine had to be replaced), and what the last run answered.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { SpecPermutationResult, SpecResult } from '../webworker/protocol';
import type { LabState, SpecSlice } from './types';

/** The views read a run's answer from here (they reach the engine only through the store). */
export type { SpecPermutationResult, SpecResult };

export interface SpecRunnerState {
  /** The spec as the learner left it; null: not edited yet (the editor shows its example). */
  text: string | null;
  running: boolean;
  /** The last run's answer, for the text it ran. */
  result: SpecResult | null;
  /** The engine could not answer (it was replaced, or failed): why. */
  failure: string | null;
}

export function createSpecSlice(): StateCreator<LabState, [], [], SpecSlice> {
  return (set, get) => {
    const update = (change: Partial<SpecRunnerState>) => set({ specRunner: { ...get().specRunner, ...change } });
    return {
      specRunner: { text: null, running: false, result: null, failure: null },

      editSpec(text) {
        update({ text });
      },

      async runSpec(text) {
        if (get().specRunner.running) return;
        update({ text, running: true, failure: null });
        const outcome = await get().checkSpec(text);
        if (outcome.kind === 'failed') update({ running: false, result: null, failure: outcome.reason });
        else update({ running: false, result: outcome });
      },
    };
  };
}
