import { describe, expect, it } from 'vitest';
import { MAX_SCHEDULE_LENGTH } from '../../src/sim/schedule';
import { decodeView, encodeView, MAX_LINK_CHARS } from '../../src/store/permalink';
import { loadPlace, PLACE_KEY, savePlace } from '../../src/store/persist';
import type { View } from '../../src/store/view';
import { MemoryStorage } from '../support/memory-storage';

const view: View = {
  scenarioId: 'paused-worker',
  settings: { strategy: 'skip-locked', fencing: false },
  schedule: ['A', 'A', '+10', 'pause:B', 'cancel:123'],
  position: 4,
};

describe('links', () => {
  it('round-trips a view and stays readable', () => {
    const text = encodeView(view);
    expect(text).toBe('scenario=paused-worker&strategy=skip-locked&fencing=off&schedule=A,A,+10,pause:B,cancel:123&step=4');
    expect(decodeView(`#${text}`)).toEqual({ view, problems: [] });
  });

  it('reads "+" as the clock token, not as a space, and accepts percent-encoding', () => {
    const decoded = decodeView('scenario=race&strategy=naive&fencing=on&schedule=A%2CB%2C%2B30&step=2');
    expect(decoded?.view).toEqual({ scenarioId: 'race', settings: { strategy: 'naive', fencing: true }, schedule: ['A', 'B', '+30'], position: 2 });
    expect(decoded?.problems).toEqual([]);
  });

  it('means "no link" for an empty fragment', () => {
    expect(decodeView('')).toBeNull();
    expect(decodeView('#')).toBeNull();
  });

  it('shows the last step when the link gives none', () => {
    expect(decodeView('#scenario=race')?.view.position).toBeNull();
  });

  it('opens the first scenario for an unknown one, and says so', () => {
    const decoded = decodeView('#scenario=nope&schedule=A,B');
    expect(decoded?.view).toEqual({ scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: [], position: 0 });
    expect(decoded?.problems.join(' ')).toContain('There is no scenario "nope"');
  });

  it('keeps the valid part: a bad strategy falls back, the schedule stays', () => {
    const decoded = decodeView('#scenario=race&strategy=magic&fencing=maybe&schedule=A,B');
    expect(decoded?.view.settings).toEqual({ strategy: 'naive', fencing: false });
    expect(decoded?.view.schedule).toEqual(['A', 'B']);
    expect(decoded?.problems).toHaveLength(2);
  });

  it('keeps the schedule up to a bad token', () => {
    const decoded = decodeView('#scenario=race&schedule=A,B,jump,A');
    expect(decoded?.view.schedule).toEqual(['A', 'B']);
    expect(decoded?.problems[0]).toMatch(/Step 3 of the schedule is wrong: "jump" is not a schedule step/);
  });

  it('rejects a bad position', () => {
    const decoded = decodeView('#scenario=race&schedule=A&step=-3');
    expect(decoded?.view.position).toBeNull();
    expect(decoded?.problems[0]).toMatch(/whole number/);
  });

  it('survives bad percent-encoding', () => {
    const decoded = decodeView('#scenario=race&schedule=A%E0%A4%A&step=1');
    expect(decoded?.view.scenarioId).toBe('race');
    expect(decoded?.view.schedule).toEqual([]);
    expect(decoded?.problems[0]).toMatch(/not properly encoded/);
  });

  it('treats HTML as plain, unknown text', () => {
    const decoded = decodeView(`#scenario=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(decoded?.view.scenarioId).toBe('race');
    expect(decoded?.problems[0]).toContain('There is no scenario "<img src=x onerror=alert(1)>"');
  });

  it('ignores absurdly long links', () => {
    const decoded = decodeView(`#scenario=race&schedule=${'A,'.repeat(MAX_LINK_CHARS)}`);
    expect(decoded?.view.schedule).toEqual([]);
    expect(decoded?.problems[0]).toMatch(/characters long/);
  });

  it('keeps at most the longest schedule the lab replays', () => {
    const decoded = decodeView(
      `#scenario=race&schedule=${Array(MAX_SCHEDULE_LENGTH + 5)
        .fill('A')
        .join(',')}`,
    );
    expect(decoded?.view.schedule).toHaveLength(MAX_SCHEDULE_LENGTH);
    expect(decoded?.problems[0]).toMatch(/at most 2000/);
  });

  it('says so when a fragment is not a lab link at all', () => {
    const decoded = decodeView('#top');
    expect(decoded?.view.scenarioId).toBe('race');
    expect(decoded?.problems).toHaveLength(1);
  });
});

describe('saved place', () => {
  it('round-trips', () => {
    const storage = new MemoryStorage();
    savePlace(storage, view);
    expect(loadPlace(storage)).toEqual({ view, problems: [] });
  });

  it('is nothing when nothing was saved', () => {
    expect(loadPlace(new MemoryStorage())).toBeNull();
  });

  it('starts afresh, with a notice, when storage is damaged', () => {
    const storage = new MemoryStorage();
    storage.setItem(PLACE_KEY, '{not json');
    const loaded = loadPlace(storage);
    expect(loaded?.view.scenarioId).toBe('race');
    expect(loaded?.problems[0]).toMatch(/damaged/);
    expect(storage.getItem(PLACE_KEY)).toBeNull();
  });

  it('checks stored fields like a link', () => {
    const storage = new MemoryStorage();
    storage.setItem(PLACE_KEY, JSON.stringify({ scenario: 'race', strategy: 'naive', fencing: 'sideways', schedule: ['A', 42], step: 1 }));
    const loaded = loadPlace(storage);
    expect(loaded?.view.schedule).toEqual(['A']);
    expect(loaded?.problems).toHaveLength(2);
  });

  it('copes with storage that throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
      removeItem: () => {},
    };
    expect(loadPlace(throwing)).toBeNull();
    expect(() => savePlace(throwing, view)).not.toThrow();
  });
});
