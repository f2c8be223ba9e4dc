import { describe, expect, it } from 'vitest';
import { syntheticTrace } from '../../scripts/timeline-preview/synthetic';
import { layoutTimeline } from '../../src/timeline/layout';
import { steady } from '../../src/timeline/steady';

describe('steady', () => {
  it('keeps the parts that hold the same values and takes the new ones', () => {
    const previous = { width: 100, lanes: [{ id: 'A', top: 0 }], marks: [{ step: 0, x: 10 }], view: [0, 4] };
    const next = {
      width: 100,
      lanes: [{ id: 'A', top: 0 }],
      marks: [
        { step: 0, x: 10 },
        { step: 1, x: 20 },
      ],
      view: [0, 5],
    };
    const kept = steady(previous, next);
    expect(kept).toEqual(next);
    expect(kept.lanes).toBe(previous.lanes);
    expect(kept.marks).not.toBe(previous.marks);
    expect(kept.marks[0]).toBe(previous.marks[0]);
    expect(kept.marks[1]).toBe(next.marks[1]);
    expect(kept.view).not.toBe(previous.view);
  });

  it('matches items that stand for a step by their step when the window slides', () => {
    const previous = {
      marks: [
        { step: 3, x: 10 },
        { step: 4, x: 20 },
      ],
    };
    const next = {
      marks: [
        { step: 4, x: 20 },
        { step: 5, x: 30 },
      ],
    };
    const kept = steady(previous, next);
    expect(kept.marks[0]).toBe(previous.marks[1]);
    expect(kept.marks[1]).toBe(next.marks[1]);
  });

  it('returns the previous object itself when nothing changed', () => {
    const previous = { a: [1, 2], b: { c: 'x' } };
    expect(steady(previous, { a: [1, 2], b: { c: 'x' } })).toBe(previous);
  });

  it('keeps most of a real layout when one more step is revealed', () => {
    const trace = syntheticTrace(12, ['A', 'B']);
    const size = { width: 1280, height: 420 };
    const before = layoutTimeline(trace, size, undefined, { position: 3 });
    const after = layoutTimeline(trace, size, undefined, { position: 4 });
    const kept = steady(before, after);
    expect(kept).toEqual(after);
    expect(kept.legend).toBe(before.legend);
    expect(kept.marks.slice(0, 3).every((mark, i) => mark === before.marks[i])).toBe(true);
    expect(kept.marks).toHaveLength(4);
  });
});
