/** The console's history in localStorage: newest first, at most 50, and whatever is stored is checked. */
import { describe, expect, it } from 'vitest';
import type { StorageLike } from '../../src/persist/saved';
import { HISTORY_KEY, HISTORY_LIMIT, loadHistory, remember, saveHistory } from '../../src/store/console-history';
import { MemoryStorage } from '../support/memory-storage';

describe('the console history', () => {
  it('keeps the newest first, moves a repeated statement to the front, and stops at 50', () => {
    let history: string[] = [];
    for (let i = 0; i < 60; i++) history = remember(history, `SELECT ${i}`);
    history = remember(history, 'SELECT 30');
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history.slice(0, 3)).toEqual(['SELECT 30', 'SELECT 59', 'SELECT 58']);
    expect(history.filter((entry) => entry === 'SELECT 30')).toHaveLength(1);
    expect(remember(history, '   ')).toEqual(history);
  });

  it('round-trips through storage under a versioned key', () => {
    const storage = new MemoryStorage();
    saveHistory(storage, ['SELECT 2', 'SELECT 1']);
    expect([...storage.data.keys()]).toEqual([HISTORY_KEY]);
    expect(loadHistory(storage)).toEqual(['SELECT 2', 'SELECT 1']);
  });

  it('survives corrupt, foreign or blocked storage', () => {
    expect(loadHistory(null)).toEqual([]);
    expect(loadHistory(new MemoryStorage({ [HISTORY_KEY]: '{not json' }))).toEqual([]);
    expect(loadHistory(new MemoryStorage({ [HISTORY_KEY]: '{"a":1}' }))).toEqual([]);
    expect(
      loadHistory(new MemoryStorage({ [HISTORY_KEY]: JSON.stringify(['SELECT 1', 7, null, '', 'SELECT 1', { x: 1 }, 'x'.repeat(20_000), 'TABLE runs']) })),
    ).toEqual(['SELECT 1', 'TABLE runs']);
    expect(loadHistory(new MemoryStorage({ [HISTORY_KEY]: JSON.stringify(Array.from({ length: 80 }, (_, i) => `SELECT ${i}`)) }))).toHaveLength(HISTORY_LIMIT);
    const blocked: StorageLike = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {},
    };
    expect(loadHistory(blocked)).toEqual([]);
    expect(() => saveHistory(blocked, ['SELECT 1'])).not.toThrow();
  });
});
