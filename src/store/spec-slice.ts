/**
 * "Your SQL"'s own schema: a spec the learner pastes, run by the engine's Web Worker on a PGlite of its own
 * (webworker/spec-host.ts) in the lab's one queue (the session's checkSpec, which reopens the learner's
 * scenario if the engine had to be replaced), and what the last run answered.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { SpecPermutationResult, SpecResult, StepReply, StepTrace } from '../webworker/protocol';
import { encodeSpecLink, type SpecLink } from './spec-link';
import { lastStop, openedPermutation, orderOf } from './spec-lanes';
import { loadSpecDraft, saveSpecDraft } from './spec-draft';
import type { LabDeps, LabState, SpecSlice } from './types';

/** The views read a run's answer from here (they reach the engine only through the store). */
export type { SpecPermutationResult, SpecResult, StepReply, StepTrace };

export interface SpecRunnerState {
  /** The spec as the learner left it; null: not edited yet (the editor shows its example). */
  text: string | null;
  running: boolean;
  /** The last run's answer, for the text it ran. */
  result: SpecResult | null;
  /** The engine could not answer (it was replaced, or failed): why. */
  failure: string | null;
  /** The order whose output the learner opened last (its step names, space-separated), or the link's. */
  shownOrder: string | null;
  /** Where the opened order's lanes stand (spec-lanes.ts: 0 its start, N after its Nth step), or the link's. */
  shownStep: number;
  /** The text came from a link and the learner has not changed or run it yet. */
  fromLink: boolean;
  /** The text's part of the lab's link (spec-link.ts), or null while there is no text of the learner's. */
  link: SpecLink | null;
}

export function createSpecSlice(deps: LabDeps): StateCreator<LabState, [], [], SpecSlice> {
  return (set, get) => {
    const update = (change: Partial<SpecRunnerState>) => set({ specRunner: { ...get().specRunner, ...change } });
    /** Encoding is asynchronous: only the latest text's link is kept. */
    let encodings = 0;
    const encode = (text: string) => {
      encodings += 1;
      const mine = encodings;
      void encodeSpecLink(text).then((link) => {
        if (mine === encodings && get().specRunner.text === text) update({ link });
      });
    };
    const saved = loadSpecDraft(deps.storage);
    const draft = saved.text;
    if (draft !== null) encode(draft);
    return {
      specRunner: { text: draft, running: false, result: null, failure: null, fromLink: false, shownOrder: null, shownStep: 0, link: null },

      editSpec(text) {
        update({ text, fromLink: false });
        if (!saved.newer) saveSpecDraft(deps.storage, text);
        encode(text);
      },

      openSpecFromLink(text, order, step = 0) {
        // Shown, not run and not stored: the learner decides (an embed acts only after they do).
        update({ text, result: null, failure: null, fromLink: true, shownOrder: order, shownStep: step });
        encode(text);
        const { yourSql, openYourSql } = get();
        if (!yourSql.open) openYourSql();
      },

      showSpecOrder(order) {
        update({ shownOrder: order, shownStep: 0 });
      },

      showSpecStep(step) {
        update({ shownStep: step });
      },

      async runSpec(text) {
        if (get().specRunner.running) return;
        const changed = get().specRunner.text !== text;
        const linked = get().specRunner.fromLink;
        update({ text, running: true, failure: null, fromLink: false });
        if (changed) encode(text);
        const outcome = await get().checkSpec(text);
        if (outcome.kind === 'failed') {
          update({ running: false, result: null, failure: outcome.reason });
          return;
        }
        // A step past the opened order's end (the link's, or one kept from a run of other text) opens it at its start.
        const { shownOrder, shownStep } = get().specRunner;
        const opened = openedPermutation(outcome, shownOrder);
        const fits = opened !== null && shownStep <= lastStop(opened);
        update({ running: false, result: outcome, shownStep: fits ? shownStep : 0 });
        if (!fits && linked && shownStep > 0) {
          get().notify('warning', "The link's step of the spec could not be shown.", [
            opened
              ? `specstep=${shownStep} is past the end of the order ${orderOf(opened)} (its last is ${lastStop(opened)}): it opens at its start.`
              : `specstep=${shownStep}: no order was opened, so there is no step to show.`,
          ]);
        }
      },
    };
  };
}
