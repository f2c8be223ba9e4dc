import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { whenQuiet } from '../../src/store/quiet';

describe('whenQuiet', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits for a pause in the store’s changes', () => {
    const store = createStore(() => ({ position: 0, pending: 0 }));
    const done = vi.fn();
    whenQuiet(store, done, 700, 4000);
    vi.advanceTimersByTime(500);
    store.setState({ position: 1 });
    vi.advanceTimersByTime(500);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('runs at the latest after atMostMs while the changes go on, and once only', () => {
    const store = createStore(() => ({ position: 0, pending: 0 }));
    const done = vi.fn();
    whenQuiet(store, done, 700, 4000);
    for (let t = 0; t < 6000; t += 300) {
      store.setState({ position: t });
      vi.advanceTimersByTime(300);
    }
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('does nothing once cancelled', () => {
    const store = createStore(() => ({ position: 0, pending: 0 }));
    const done = vi.fn();
    whenQuiet(store, done, 700, 4000)();
    vi.advanceTimersByTime(5000);
    expect(done).not.toHaveBeenCalled();
  });

  it('never counts a request under way as a pause, however long it takes', () => {
    const store = createStore(() => ({ position: 0, pending: 0 }));
    const done = vi.fn();
    whenQuiet(store, done, 700, 4000);
    vi.advanceTimersByTime(100);
    store.setState({ pending: 1 });
    vi.advanceTimersByTime(5000);
    expect(done).not.toHaveBeenCalled();
    store.setState({ pending: 0, position: 1 });
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('after a step that answered, waits for a pause again', () => {
    const store = createStore(() => ({ position: 0, pending: 0 }));
    const done = vi.fn();
    whenQuiet(store, done, 700, 4000);
    store.setState({ pending: 1 });
    vi.advanceTimersByTime(1000);
    store.setState({ pending: 0, position: 1 });
    vi.advanceTimersByTime(600);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(done).toHaveBeenCalledTimes(1);
  });
});
