/** The worker cards' read-outs: belief beside the row; the program and its pointer are tested against the engine in worker-program.test.ts. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { LabProvider } from '../../src/store/react';
import type { LabState } from '../../src/store/types';
import { beliefOf } from '../../src/store/worker-belief';
import { WorkerCards } from '../../src/ui/WorkerCards';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { labDatabase, runScenario } from '../support/lab';

describe('belief beside the row', () => {
  it("naive race after B's claim: A believes it owns run 123 with generation 18; the row says B, 19", async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B'], { strategy: 'naive', fencing: false });
    const after = trace.steps[3]!;
    const row = after.runs.find((run) => run.run_id === 123);
    const a = beliefOf(after.workers.find((w) => w.id === 'A')!, row)!;
    expect(a.lines.map((line) => [line.field, line.believes, line.row, line.agrees])).toEqual([
      ['owner', 'A', 'B', false],
      ['generation', '18', '19', false],
      ['lease', '15:01:00', '15:01:00', true],
    ]);
    const b = beliefOf(after.workers.find((w) => w.id === 'B')!, row)!;
    expect(b.lines.every((line) => line.agrees)).toBe(true);
  });

  it('a worker that has only read a run believes nothing about its lease', async () => {
    const trace = await runScenario('race', ['A'], { strategy: 'naive', fencing: false });
    const a = trace.steps[0]!.workers.find((w) => w.id === 'A')!;
    expect(a.phase).toBe('selected');
    expect(beliefOf(a, trace.steps[0]!.runs[0])).toBeNull();
  });
});

describe('the cards while another strategy loads', () => {
  /**
   * The worker cards as the page draws them, from the store's state now. Rendered server-side, where a
   * store is read at its initial state: hence a store made from this moment's state.
   */
  function cards(store: LabStore): string {
    const now = createStore<LabState>()(() => store.getState());
    return renderToStaticMarkup(createElement(LabProvider, { store: now }, createElement(WorkerCards)));
  }

  it("right after SKIP LOCKED is picked, A's card still names the naive claim's UPDATE the steps shown will run; then the new trace's", async () => {
    const store = createLabStore({ lab: new InProcessLabClient(labDatabase), storage: null, sleep: async () => {} });
    await store.getState().start('#scenario=race&strategy=naive&fencing=off&schedule=A&step=1');
    expect(store.getState().steps[0]!.workers.find((w) => w.id === 'A')!.phase).toBe('selected');
    expect(cards(store)).toContain('naive-update.sql');

    // The picker changes the settings at once; the replay with them is still on its way.
    const replayed = store.getState().chooseStrategy('skip-locked');
    expect(store.getState().settings.strategy).toBe('skip-locked');
    expect(store.getState().traceSettings.strategy).toBe('naive');
    // A has selected a run: under a one-statement claim it would have no next statement (planAction throws).
    expect(cards(store)).toContain('naive-update.sql');

    await replayed;
    expect(store.getState().traceSettings.strategy).toBe('skip-locked');
    expect(store.getState().steps[0]!.workers.find((w) => w.id === 'A')!.phase).not.toBe('selected');
    expect(cards(store)).not.toContain('naive-update.sql');
  });
});
