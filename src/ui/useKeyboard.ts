import { useEffect } from 'react';
import { findScenario } from '../scenarios';
import { useLabStore } from '../store/react';
import { commandForKey, LAB_COMMANDS } from './commands';
import { labKey } from './keys';

/** Binds the lab's keys on the document for as long as the app is mounted: each runs its command as its button does. */
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
      const key = labKey(event);
      if (key === null) return;
      event.preventDefault();
      if (/^[1-9]$/.test(key)) {
        const worker = findScenario(state.scenarioId)?.workers[Number(key) - 1];
        if (worker) void state.stepWorker(worker.id);
        return;
      }
      const command = commandForKey(LAB_COMMANDS, key);
      if (command?.enabled(state)) command.perform(state);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}
