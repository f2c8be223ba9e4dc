/** The checkers' words, on traces the engine records. */
import { describe, expect, it } from 'vitest';
import { CHAPTERS } from '../../src/lessons/chapters';
import { CONCEPTS } from '../../src/lessons/concepts';
import { QUIZ } from '../../src/lessons/quiz';
import { findScenario, scenarioSummary } from '../../src/scenarios';
import { listWorkers } from '../../src/sim/anomalies';
import { runScenario } from '../support/lab';

describe('duplicate execution', () => {
  it('is not reported while only one worker has paid for a model call', async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B', 'A'], { strategy: 'naive', fencing: false });
    expect(trace.steps.filter((s) => s.action === 'work').map((s) => s.actor)).toEqual(['A']);
    expect(trace.anomalies.map((a) => a.kind)).not.toContain('duplicate-execution');
  });

  it('is reported once both have paid, in words that count right', async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B', 'A', 'B'], { strategy: 'naive', fencing: false });
    const duplicate = trace.anomalies.find((a) => a.kind === 'duplicate-execution');
    expect(duplicate?.message).toBe('Run 123 was executed by both A and B: 2 model calls were paid for one run.');
  });

  it('names three workers as a list, not "both"', async () => {
    const trace = await runScenario('three-workers', ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'], { strategy: 'naive', fencing: false });
    const duplicate = trace.anomalies.find((a) => a.kind === 'duplicate-execution');
    expect(duplicate?.workers).toEqual(['A', 'B', 'C']);
    expect(duplicate?.message).toBe('Run 123 was executed by A, B and C: 3 model calls were paid for one run.');
  });

  it('lists workers with commas and "and"', () => {
    expect(listWorkers(['A'])).toBe('A');
    expect(listWorkers(['A', 'B'])).toBe('A and B');
    expect(listWorkers(['A', 'B', 'C'])).toBe('A, B and C');
  });
});

describe('a stranded run', () => {
  it('crash-orphan under the naive claim: the run stays running under crashed A, and that is named', async () => {
    const trace = await runScenario('crash-orphan', 'script', { strategy: 'naive' });
    expect(trace.finalRuns[0]).toMatchObject({ status: 'running', lease_owner: 'A' });
    const stranded = trace.anomalies.find((a) => a.kind === 'stranded-run');
    expect(stranded).toMatchObject({ runId: 123, workers: ['A'] });
    expect(stranded?.message).toMatch(/^Run 123 is still running under crashed worker A; nothing will reclaim it/);
  });

  it('is not raised where the claim reclaims expired leases', async () => {
    const trace = await runScenario('crash-orphan', ['A', 'A', 'A', 'crash:A'], { strategy: 'skip-locked' });
    expect(trace.anomalies.map((a) => a.kind)).not.toContain('stranded-run');
  });
});

describe('scenario summaries follow the strategy', () => {
  it('speaks of SKIP LOCKED and reclaiming only where they happen', () => {
    const crash = findScenario('crash-orphan')!;
    expect(scenarioSummary(crash, 'skip-locked')).toMatch(/reclaims it for B/);
    expect(scenarioSummary(crash, 'naive')).not.toMatch(/reclaims it for B/);
    expect(scenarioSummary(crash, 'naive')).toMatch(/stranded/);
    const three = findScenario('three-workers')!;
    for (const strategy of ['naive', 'cas', 'for-update', 'nowait'] as const) expect(scenarioSummary(three, strategy)).not.toMatch(/SKIP LOCKED/);
  });
});

describe('a lost cancel', () => {
  it('by kill says the worker was killed, not that the run was cancelled', async () => {
    const trace = await runScenario('cancel-kill', 'script');
    const lost = trace.anomalies.find((a) => a.kind === 'lost-cancel');
    expect(lost?.message).toMatch(/^The operator killed run 123's worker at step \d+ to stop the run, but nothing recorded that it should stop/);
    expect(lost?.message).not.toMatch(/was cancelled/);
  });
});

describe('words that are data', () => {
  it('the concept table and the heartbeat question say what is true', () => {
    const lease = CONCEPTS.find((c) => c.id === 'lease')!;
    expect(lease.temporal).toMatch(/Heartbeat Timeout is the renewable part/);
    const backpressure = CONCEPTS.find((c) => c.id === 'backpressure')!;
    expect(backpressure.labNote).not.toMatch(/Not enforced/);
    const heartbeat = QUIZ.find((q) => q.id === 'q-heartbeat-interval')!;
    expect(heartbeat.explanation).not.toMatch(/survives two/);
    expect(heartbeat.explanation).toMatch(/one missed or late renewal with 20 s to spare/);
    const cancel = QUIZ.find((q) => q.id === 'q-predict-cancel')!;
    expect(cancel.explanation).toMatch(/stays leased to the killed worker until its lease expires/);
  });
});

describe('the isolation level', () => {
  it('the chapters that rely on a re-check say it is READ COMMITTED, and what the other levels do', () => {
    const text = CHAPTERS.flatMap((c) => c.steps.flatMap((s) => s.body)).join('\n');
    for (const claim of ['re-evaluates its WHERE clause', 'B gets 124']) {
      const paragraph = text.split('\n').find((p) => p.includes(claim))!;
      expect(paragraph).toMatch(/READ COMMITTED/);
      expect(paragraph).toMatch(/40001 \(could not serialize access due to concurrent update\)/);
    }
  });
});
