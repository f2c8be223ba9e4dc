import { describe, expect, it } from 'vitest';
import { sameFields } from '../../src/ui/same';

describe('sameFields', () => {
  it('is true for equal flat objects whatever their identity', () => {
    expect(sameFields({ id: 'A', runId: 123, paused: false }, { id: 'A', runId: 123, paused: false })).toBe(true);
  });

  it('is false when a field differs, is missing, or holds another object', () => {
    expect(sameFields({ id: 'A', runId: 123 }, { id: 'A', runId: 124 })).toBe(false);
    expect(sameFields<Record<string, unknown>>({ id: 'A', runId: null }, { id: 'A' })).toBe(false);
    expect(sameFields({ result: { ok: 1 } }, { result: { ok: 1 } })).toBe(false);
  });
});
