/** The worker cards' read-outs: belief beside the row, and the statement the engine will really run next. */
import { describe, expect, it } from 'vitest';
import { defaultSettings, findScenario, SCENARIOS } from '../../src/scenarios';
import { beliefOf, nextStatementOf } from '../../src/store/worker-belief';
import { STRATEGY_IDS } from '../../src/strategies';
import { runScenario } from '../support/lab';

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

describe('the next statement while another strategy loads', () => {
  it('a worker that selected a run under SELECT then UPDATE has no next statement under a one-statement claim: the card waits, it does not throw', async () => {
    const scenario = findScenario('race')!;
    const trace = await runScenario('race', 'script', { strategy: 'naive', fencing: false });
    const selected = trace.steps[0]!.workers.find((w) => w.id === 'A')!;
    expect(selected.phase).toBe('selected');
    for (const strategy of ['skip-locked', 'river'] as const) {
      expect(nextStatementOf(selected, scenario, { strategy, fencing: false }, trace.steps[0]!.clockSeconds)).toEqual({ kind: 'state', words: '…' });
    }
    expect(nextStatementOf(selected, scenario, { strategy: 'cas', fencing: false }, trace.steps[0]!.clockSeconds)).toMatchObject({
      kind: 'statement',
      file: 'cas-claim.sql',
    });
  });
});
