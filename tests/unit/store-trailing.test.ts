import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { messageChannelTasks, trailingCopy } from '../../src/store/trailing';

/** A `later` the test runs by hand. */
function manualLater() {
  const queued: (() => void)[] = [];
  return {
    later: (callback: () => void) => void queued.push(callback),
    queued,
    runAll: () => {
      for (const callback of queued.splice(0)) callback();
    },
  };
}

describe('trailingCopy', () => {
  it('starts equal to the store and catches up only when the later task runs', () => {
    const source = createStore(() => ({ position: 0, steps: ['a'] }));
    const tasks = manualLater();
    const { store: copy } = trailingCopy(source, tasks.later);
    expect(copy.getState()).toEqual({ position: 0, steps: ['a'] });

    source.setState({ position: 1 });
    expect(copy.getState().position).toBe(0);
    tasks.runAll();
    expect(copy.getState()).toBe(source.getState());
  });

  it('makes one catch-up of several changes in a task, and tells its readers once', () => {
    const source = createStore(() => ({ position: 0 }));
    const tasks = manualLater();
    const { store: copy } = trailingCopy(source, tasks.later);
    const seen: number[] = [];
    copy.subscribe((state) => seen.push(state.position));

    source.setState({ position: 1 });
    source.setState({ position: 2 });
    source.setState({ position: 3 });
    expect(tasks.queued).toHaveLength(1);
    tasks.runAll();
    expect(seen).toEqual([3]);

    source.setState({ position: 4 });
    expect(tasks.queued).toHaveLength(1);
    tasks.runAll();
    expect(seen).toEqual([3, 4]);
  });

  it('stops following once stopped, even with a catch-up on its way', () => {
    const source = createStore(() => ({ position: 0 }));
    const tasks = manualLater();
    const trailing = trailingCopy(source, tasks.later);
    source.setState({ position: 1 });
    trailing.stop();
    tasks.runAll();
    source.setState({ position: 2 });
    expect(tasks.queued).toHaveLength(0);
    expect(trailing.store.getState().position).toBe(0);
  });

  it('by default catches up in a later task, in order, not in the same one', async () => {
    const source = createStore(() => ({ position: 0 }));
    const trailing = trailingCopy(source, messageChannelTasks());
    source.setState({ position: 1 });
    await Promise.resolve();
    expect(trailing.store.getState().position).toBe(0);
    // Whenever the machine gets to that task: waiting for it, not for a fixed time.
    await vi.waitFor(() => expect(trailing.store.getState().position).toBe(1), { timeout: 30_000, interval: 5 });
    trailing.stop();
  });
});
