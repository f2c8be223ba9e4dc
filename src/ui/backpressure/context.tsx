/**
 * The backpressure view's store, one per page, made on first import. It follows the address from the
 * start (a link to the view opens it) and plays on the page's engine worker, whose Postgres the race
 * lab started: a tab has one Postgres.
 */
import { useStore } from 'zustand';
import { type BackpressureState, connectBackpressureOutside, createBackpressureStore } from '../../store/backpressure-store';
import { startWorkerEngine } from '../../worker/spawn';
import { backpressureOnEngine } from './client';

export const backpressureStore = createBackpressureStore({
  engine: () => backpressureOnEngine(startWorkerEngine),
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
