/**
 * The one persistence mechanism (src/persist/saved.ts) keeps today's saved data readable: for each value
 * the lab keeps, the exact JSON today's code writes (key and shape copied from it) reads back to the same
 * state, and saving writes that same JSON again, so an older copy of the lab (an offline one) reads it too.
 * Also the mechanism's versions and migrations.
 */
import { describe, expect, it } from 'vitest';
import { parseSaved, type SavedFormat } from '../../src/persist/saved';
import { createHistoryStore } from '../../src/store/console-history';
import { loadPlace, loadPrefs, savePlace, savePrefs } from '../../src/store/persist';
import { createProgressStore } from '../../src/store/progress-store';
import { MemoryStorage } from '../support/memory-storage';

describe("today's saved data", () => {
  it('the place (lease-lab:place:v1, version 1 inside, and the first release without one)', () => {
    const today = '{"version":1,"scenario":"lock-wait","strategy":"for-update","fencing":true,"schedule":["A","B"],"step":1}';
    const storage = new MemoryStorage({ 'lease-lab:place:v1': today });
    const place = { scenarioId: 'lock-wait', settings: { strategy: 'for-update', fencing: true }, schedule: ['A', 'B'], position: 1 };
    expect(loadPlace(storage)).toEqual({ view: place, problems: [] });
    expect(savePlace(storage, loadPlace(storage)!.view)).toBe(true);
    expect(storage.data.get('lease-lab:place:v1')).toBe(today);

    const firstRelease = new MemoryStorage({ 'lease-lab:place:v1': '{"scenario":"race","strategy":"naive","fencing":false,"schedule":["A"],"step":null}' });
    expect(loadPlace(firstRelease)).toEqual({
      view: { scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: ['A'], position: null },
      problems: [],
    });
  });

  it('a place from a newer lab, or damaged, is set aside with a notice and the lab starts afresh', () => {
    const newer = new MemoryStorage({ 'lease-lab:place:v1': '{"version":2,"scenario":"race"}' });
    expect(loadPlace(newer)?.problems[0]).toContain('a newer version');
    expect(newer.data.get('lease-lab:place:v1')).toBeUndefined();
    expect(loadPlace(new MemoryStorage({ 'lease-lab:place:v1': '{oops' }))?.problems[0]).toContain('damaged');
  });

  it('the preferences (lease-lab:prefs:v1)', () => {
    const today = '{"theme":"dark","speed":2,"allControls":true,"startCardDone":true}';
    const storage = new MemoryStorage({ 'lease-lab:prefs:v1': today });
    expect(loadPrefs(storage)).toEqual({ theme: 'dark', speed: 2, allControls: true, startCardDone: true });
    savePrefs(storage, loadPrefs(storage));
    expect(storage.data.get('lease-lab:prefs:v1')).toBe(today);
    // Written before "All controls" and the start card: both read as not yet chosen.
    expect(loadPrefs(new MemoryStorage({ 'lease-lab:prefs:v1': '{"theme":"dark","speed":2}' }))).toEqual({
      theme: 'dark',
      speed: 2,
      allControls: false,
      startCardDone: false,
    });
    expect(loadPrefs(new MemoryStorage({ 'lease-lab:prefs:v1': '[1]' }))).toEqual({ theme: 'system', speed: 1, allControls: false, startCardDone: false });
  });

  it('the lesson progress (lease-lab.lesson-progress, version 3 inside, the seed beside it)', () => {
    const today =
      '{"version":3,"chapters":{"race":{"done":true,"step":5,"doneAt":1700000000000},"select-then-update":{"done":false,"step":2,"doneAt":null}},"quiz":{"q-race-condition":{"attempts":2,"first":"wrong","correct":true,"everCorrect":true,"at":1700000001000}},"predictions":{"claim-race":{"attempts":3,"correct":2}},"challenges":{"double-run":{"won":false,"wonAt":null,"hints":1},"long-wait":{"won":true,"wonAt":1700000001200,"hints":2,"hintsAtWin":1}},"currentChapter":"select-then-update","currentLevel":"double-run","seed":123456}';
    const storage = new MemoryStorage({ 'lease-lab.lesson-progress': today });
    const store = createProgressStore({ storage, now: () => 1700000002000, newSeed: () => 7 });
    expect(store.getState()).toEqual({
      progress: {
        version: 3,
        chapters: { race: { done: true, step: 5, doneAt: 1700000000000 }, 'select-then-update': { done: false, step: 2, doneAt: null } },
        quiz: { 'q-race-condition': { attempts: 2, first: 'wrong', correct: true, everCorrect: true, at: 1700000001000 } },
        predictions: { 'claim-race': { attempts: 3, correct: 2 } },
        challenges: {
          'double-run': { won: false, wonAt: null, hints: 1 },
          'long-wait': { won: true, wonAt: 1700000001200, hints: 2, hintsAtWin: 1 },
        },
        currentChapter: 'select-then-update',
        currentLevel: 'double-run',
      },
      notice: null,
      persistent: true,
      readOnly: false,
      seed: 123456,
    });
    // A change that changes nothing writes nothing; a real one writes today's shape.
    store.revealHints('double-run', 1);
    expect(storage.data.get('lease-lab.lesson-progress')).toBe(today);
    store.revealHints('double-run', 2);
    expect(JSON.parse(storage.data.get('lease-lab.lesson-progress')!)).toEqual({
      ...JSON.parse(today),
      challenges: { ...JSON.parse(today).challenges, 'double-run': { won: false, wonAt: null, hints: 2 } },
    });
  });

  it("the lesson progress of the previous release (version 2: wins without their hints, no level in play) is carried over as today's", () => {
    const previous =
      '{"version":2,"chapters":{},"quiz":{},"predictions":{},"challenges":{"double-run":{"won":true,"wonAt":1700000000000,"hints":3}},"currentChapter":null,"seed":123456}';
    const storage = new MemoryStorage({ 'lease-lab.lesson-progress': previous });
    const store = createProgressStore({ storage, newSeed: () => 7 });
    expect(store.getState().notice?.kind).toBe('migrated');
    // The win is kept as it was: when its hints were read is not known, so no hintsAtWin (it reads "solved").
    expect(JSON.parse(storage.data.get('lease-lab.lesson-progress')!)).toEqual({ ...JSON.parse(previous), version: 3, currentLevel: null });
  });

  it("the lesson progress of the previous release (version 1, no first answers) is carried over and written back as today's", () => {
    const previous =
      '{"version":1,"chapters":{"race":{"done":true,"step":5,"doneAt":1700000000000}},"quiz":{"q-race-condition":{"attempts":2,"correct":true,"everCorrect":true,"at":1700000001000},"q-cte":{"attempts":1,"correct":true,"everCorrect":true,"at":1700000001500}},"predictions":{"claim-race":{"attempts":3,"correct":2}},"challenges":{"double-run":{"won":false,"wonAt":null,"hints":1}},"currentChapter":"race","seed":123456}';
    const storage = new MemoryStorage({ 'lease-lab.lesson-progress': previous });
    const store = createProgressStore({ storage, newSeed: () => 7 });
    expect(store.getState().notice?.kind).toBe('migrated');
    expect(JSON.parse(storage.data.get('lease-lab.lesson-progress')!)).toEqual({
      ...JSON.parse(previous),
      version: 3,
      currentLevel: null,
      quiz: {
        'q-race-condition': { attempts: 2, first: 'unknown', correct: true, everCorrect: true, at: 1700000001000 },
        'q-cte': { attempts: 1, first: 'right', correct: true, everCorrect: true, at: 1700000001500 },
      },
    });
  });

  it('the console history (lease-lab:console-history:v1, a bare array, newest first)', () => {
    const today = '["SELECT 2","SELECT 1"]';
    const storage = new MemoryStorage({ 'lease-lab:console-history:v1': today });
    const history = createHistoryStore(storage);
    expect(history.getState().entries).toEqual(['SELECT 2', 'SELECT 1']);
    history.getState().remember('SELECT 3');
    expect(storage.data.get('lease-lab:console-history:v1')).toBe('["SELECT 3","SELECT 2","SELECT 1"]');
    expect(createHistoryStore(new MemoryStorage({ 'lease-lab:console-history:v1': '{"not":"a list"}' })).getState().entries).toEqual([]);
  });
});

describe('the persistence mechanism', () => {
  const format: SavedFormat<{ name: string; count: number }> = {
    key: 'k',
    version: 3,
    versionOf: (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? ((value as { v?: number }).v ?? 1) : null),
    migrations: {
      1: (value) => ({ v: 2, name: value.title }),
      2: (value) => ({ ...value, v: 3, count: 0 }),
    },
    decode(value) {
      const record = value as { name?: unknown; count?: unknown };
      if (typeof record.name !== 'string' || typeof record.count !== 'number') throw new Error('does not check');
      return { name: record.name, count: record.count };
    },
    encode: (state) => ({ v: 3, ...state }),
  };

  it('brings an old version forward through every migration, and says it did', () => {
    expect(parseSaved('{"title":"old"}', format)).toMatchObject({ kind: 'read', state: { name: 'old', count: 0 }, migrated: true });
    expect(parseSaved('{"v":3,"name":"now","count":4}', format)).toMatchObject({ kind: 'read', state: { name: 'now', count: 4 }, migrated: false });
  });

  it('hands back a newer version untouched, and text that does not read as unreadable', () => {
    expect(parseSaved('{"v":9,"name":"future"}', format)).toEqual({
      kind: 'newer',
      version: 9,
      value: { v: 9, name: 'future' },
      text: '{"v":9,"name":"future"}',
    });
    expect(parseSaved('{oops', format)).toEqual({ kind: 'unreadable', text: '{oops' });
    expect(parseSaved('[1]', format)).toEqual({ kind: 'unreadable', text: '[1]' });
    expect(parseSaved('{"v":3,"name":5}', format)).toEqual({ kind: 'unreadable', text: '{"v":3,"name":5}' });
    expect(parseSaved('{"v":0}', format)).toEqual({ kind: 'older', text: '{"v":0}' });
    expect(parseSaved(null, format)).toEqual({ kind: 'none' });
  });
});
