/**
 * The race lab's keys, in the backpressure view: Space plays or pauses, → steps one second, ← goes
 * back one, R restarts. The same map (src/ui/keys.ts) decides when a key belongs to a field instead.
 */
import { useEffect } from 'react';
import { commandFor } from '../keys';
import { useBackpressureStore } from './context';

export function useBackpressureKeys(): void {
  const store = useBackpressureStore();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const command = commandFor(event);
      if (!command) return;
      const state = store.getState();
      switch (command.kind) {
        case 'toggle-play':
          if (state.playing) state.pause();
          else if (state.lanes.fifo.ticks.length > 0) state.play();
          break;
        case 'step':
          state.pause();
          state.step();
          break;
        case 'back':
          state.pause();
          state.seek(Math.max(0, state.cursor - 1));
          break;
        case 'reset':
          state.pause();
          state.rewind();
          break;
        default:
          // Worker numbers and the help overlay belong to the race lab.
          return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [store]);
}
