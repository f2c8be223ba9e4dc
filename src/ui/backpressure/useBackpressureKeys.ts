/**
 * The race lab's keys, in the backpressure view: Space plays or pauses, → steps one second, ← goes
 * back one, R restarts: BACKPRESSURE_COMMANDS, as its buttons run them. The same keys.ts decides when a
 * key belongs to a field instead.
 */
import { useEffect } from 'react';
import { BACKPRESSURE_COMMANDS, commandForKey } from '../commands';
import { labKey } from '../keys';
import { useBackpressureStore } from './context';

export function useBackpressureKeys(): void {
  const store = useBackpressureStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const key = labKey(event);
      // Worker numbers and the help overlay belong to the race lab.
      const command = key === null ? null : commandForKey(BACKPRESSURE_COMMANDS, key);
      if (!command) return;
      event.preventDefault();
      const state = store.getState();
      if (command.enabled(state)) command.perform(state);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}
