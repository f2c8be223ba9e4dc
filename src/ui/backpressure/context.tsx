/**
 * The backpressure view's store, one per page, made on first import. It follows the address from the
 * start (a link to the view opens it) but boots its Postgres only when the view is first opened.
 */
import { useStore } from 'zustand';
import { type BackpressureState, connectBackpressureOutside, createBackpressureStore } from '../../store/backpressure-store';
import { startBackpressureWorker } from './client';

export const backpressureStore = createBackpressureStore({
  engine: startBackpressureWorker,
  frame: (callback) => requestAnimationFrame(callback),
});

if (typeof window !== 'undefined') {
  connectBackpressureOutside(backpressureStore, window);
  // For the browser tests and the curious, beside the lab's own store.
  (window as unknown as { leaseLabBackpressure: unknown }).leaseLabBackpressure = { store: backpressureStore };
}

export function useBackpressure<T>(selector: (state: BackpressureState) => T): T {
  return useStore(backpressureStore, selector);
}
