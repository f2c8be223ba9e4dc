import { useEffect } from 'react';
import { findScenario } from '../scenarios';
import { useLabStore } from '../store/react';
import { commandFor } from './keys';

/** Binds the lab's keys on the document for as long as the app is mounted. */
export function useKeyboard(): void {
  const store = useLabStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A part of the page took the key for itself (the tour's arrows step its narration): not a lab key too.
      if (event.defaultPrevented) return;
      const state = store.getState();
      // The help dialog is modal: it handles its own keys (Escape closes it; "?" toggles it).
      if (state.helpOpen && event.key !== '?') return;
      // The scenario editor is modal too: its buttons and fields take their own keys (Space presses a button).
      if (event.target instanceof Element && event.target.closest('dialog.scenario-editor')) return;
      const command = commandFor(event);
      if (!command) return;
      event.preventDefault();
      switch (command.kind) {
        case 'toggle-play':
          state.togglePlay();
          return;
        case 'step':
          state.pause();
          void state.step();
          return;
        case 'back':
          state.back();
          return;
        case 'reset':
          void state.reset();
          return;
        case 'help':
          state.setHelpOpen(!state.helpOpen);
          return;
        case 'step-worker': {
          const worker = findScenario(state.scenarioId)?.workers[command.index];
          if (worker) void state.stepWorker(worker.id);
          return;
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}
