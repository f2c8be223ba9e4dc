/** The checkers' words, on traces the engine records. */
import { describe, expect, it } from 'vitest';
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
