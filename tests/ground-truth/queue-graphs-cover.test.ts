// The graph-queues-*.test.ts files between them play every two-worker lesson scenario under the queues, each once.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LESSON_SCENARIOS } from '../../src/scenarios';
import { QUEUE_GRAPH_FILES } from './queue-graphs';

describe('the queue graphs are split over files without leaving a scenario out', () => {
  it('every two-worker lesson scenario is in exactly one file', () => {
    const listed = Object.values(QUEUE_GRAPH_FILES).flat();
    const lesson = LESSON_SCENARIOS.filter((s) => s.workers.length === 2).map((s) => s.id);
    expect([...listed].sort()).toEqual([...lesson].sort());
  });

  it('each file of the split exists, and no other graph-queues file does', () => {
    const files = readdirSync(__dirname).filter((name) => name.startsWith('graph-queues-'));
    const expected = [...Object.keys(QUEUE_GRAPH_FILES), 'incidents'].map((name) => `graph-queues-${name}.test.ts`);
    expect(files.sort()).toEqual(expected.sort());
  });
});
