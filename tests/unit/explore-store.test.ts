/** The explorer's store, on an in-process runner: progress, a result, Cancel, and a replaced exploration. */
import { describe, expect, it } from 'vitest';
import { LocalExplorer } from '../../src/explorer/local';
import { createExplorerStore, type ExplorerPhase } from '../../src/store/explorer-store';
import { labDatabase } from '../support/lab';

describe('explorer store', () => {
  it('reports progress, then the groups of every schedule', async () => {
    const store = createExplorerStore(new LocalExplorer(await labDatabase()));
    const phases: ExplorerPhase[] = [];
    store.subscribe((state) => phases.push(state.phase));
    await store.getState().explore({ scenarioId: 'race', settings: { strategy: 'skip-locked', fencing: false } });
    const { phase, result, progress, target } = store.getState();
    expect(phase).toBe('done');
    expect(target?.settings.strategy).toBe('skip-locked');
    expect(result?.coverage).toBe('all');
    expect(result?.groups.map((g) => g.key)).toEqual(['none']);
    expect(progress?.fraction).toBe(1);
    expect(phases).toContain('running');
  });

  it('Cancel stops the exploration and keeps no result', async () => {
    const store = createExplorerStore(new LocalExplorer(await labDatabase()));
    const running = store.getState().explore({ scenarioId: 'race', settings: { strategy: 'naive', fencing: false } });
    store.getState().cancel();
    await running;
    expect(store.getState().phase).toBe('cancelled');
    expect(store.getState().result).toBeNull();
  });

  it('samples a scenario past its state budget, and says so', async () => {
    const store = createExplorerStore(new LocalExplorer(await labDatabase(), { maxStates: 5, sampleSize: 8 }));
    await store.getState().explore({ scenarioId: 'race', settings: { strategy: 'naive', fencing: false } });
    const { result } = store.getState();
    expect(result?.coverage).toBe('sample');
    expect(result?.total).toBe(8);
    expect(result?.seed).not.toBeNull();
  });

  it('a failure is shown, not thrown', async () => {
    const store = createExplorerStore(new LocalExplorer(await labDatabase()));
    await store.getState().explore({ scenarioId: 'no-such-scenario', settings: { strategy: 'naive', fencing: false } });
    expect(store.getState().phase).toBe('failed');
    expect(store.getState().error).toContain('no-such-scenario');
  });
});
