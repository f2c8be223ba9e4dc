/** The worker cards' read-outs: belief beside the row, and the statement the engine will really run next. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { defaultSettings, findScenario, SCENARIOS } from '../../src/scenarios';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { LabProvider } from '../../src/store/react';
import type { LabState } from '../../src/store/types';
import { beliefOf, nextStatementOf } from '../../src/store/worker-belief';
import { STRATEGY_IDS } from '../../src/strategies';
import { WorkerCards } from '../../src/ui/WorkerCards';
import { InProcessLabClient } from '../../src/worker/local-engine';
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

describe('the next statement', () => {
  const cases = SCENARIOS.flatMap((scenario) => STRATEGY_IDS.map((strategy) => ({ id: scenario.id, strategy })));
  it.for(cases)('$id under $strategy: the card names the statement of each worker step before it happens', async ({ id, strategy }) => {
    const scenario = findScenario(id)!;
    for (const fencing of [true, false]) {
      const settings = { ...defaultSettings(scenario), strategy, fencing };
      const trace = await runScenario(id, 'script', settings);
      let checked = 0;
      for (const step of trace.steps) {
        if (step.resumed || step.sqlId === null || !/^[A-Z]$/.test(step.actor) || step.action === 'crash' || step.action === 'kill') continue;
        const before = trace.steps[step.index - 1];
        const worker = (before?.workers ?? []).find((w) => w.id === step.actor);
        if (!worker) continue;
        const next = nextStatementOf(worker, scenario, settings, before!.clockSeconds);
        expect(next, `step ${step.index + 1} (${step.token})`).toMatchObject({ kind: 'statement', file: `${step.sqlId}.sql` });
        if (next.kind === 'statement') expect(step.sql?.split('\n').map((l) => l.trim())).toContain(next.firstLine);
        checked += 1;
      }
      expect(checked).toBeGreaterThan(0);
      for (const worker of trace.steps.at(-1)!.workers) {
        const next = nextStatementOf(worker, scenario, settings, trace.steps.at(-1)!.clockSeconds);
        if (worker.phase === 'crashed') expect(next).toEqual({ kind: 'state', words: 'crashed' });
        if (worker.phase === 'done') expect(next).toEqual({ kind: 'state', words: 'done' });
        if (worker.phase === 'blocked') expect(next).toMatchObject({ kind: 'state', words: expect.stringMatching(/^waits for the lock/) });
      }
    }
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
