/**
 * Hostile links and saved places, one case per test, on the real store and engine (PGlite in Node): each
 * one ends in a working lab, a notice that says what was wrong, and nothing of the learner's lost.
 * (Cases already covered elsewhere: tests/unit/store-permalink.test.ts and tests/e2e/links.spec.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { PLACE_KEY, savePlace, type StorageLike } from '../../src/store/persist';
import { InProcessLabClient } from '../../src/webworker/local-engine';
import { MemoryStorage } from '../support/memory-storage';

let db: Promise<LabDatabase>;
beforeAll(() => {
  db = bootLabDatabase();
});

const PLACE = '#scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,pause:A,+90&step=3';

/** A lab opened at PLACE, as a learner would have it. */
async function labAtPlace(storage: StorageLike | null = null): Promise<LabStore> {
  const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
  await store.getState().start(PLACE);
  expect(store.getState().notices).toEqual([]);
  return store;
}

function place(store: LabStore) {
  const { scenarioId, settings, schedule, position, steps } = store.getState();
  return { scenarioId, settings, schedule, position, steps: steps.length };
}

/** The latest notice, as one line of text. */
function said(store: LabStore): string {
  const notice = store.getState().notices.at(-1);
  return notice ? [notice.title, ...notice.details].join(' ') : '';
}

describe('a hostile link pasted into a lab in use keeps the learner where they were', () => {
  it('an unknown scenario', async () => {
    const store = await labAtPlace();
    const before = place(store);
    await store.getState().openLink('#scenario=no-such-thing&schedule=A,B&step=2');
    expect(place(store)).toEqual(before);
    expect(said(store)).toContain('There is no scenario "no-such-thing". The scenarios are: race,');
    expect(said(store)).toContain('You are still where you were.');
  });

  it('a schedule of 100,000 steps', async () => {
    const store = await labAtPlace();
    const before = place(store);
    await store.getState().openLink(`#scenario=race&schedule=${Array(100_000).fill('A').join(',')}`);
    expect(place(store)).toEqual(before);
    expect(said(store)).toMatch(
      /The link is 2000\d\d characters long, far more than any schedule needs, so the lab ignored it\. You are still where you were\./,
    );
  });

  it('broken percent-encoding in the scenario (%ZZ)', async () => {
    const store = await labAtPlace();
    const before = place(store);
    await store.getState().openLink('#scenario=r%ZZace&schedule=A');
    expect(place(store)).toEqual(before);
    expect(said(store)).toContain('The scenario in the link is not properly encoded');
  });

  it('a link that names no scenario at all', async () => {
    const store = await labAtPlace();
    const before = place(store);
    await store.getState().openLink('#strategy=cas&step=4');
    expect(place(store)).toEqual(before);
    expect(said(store)).toContain('The link names no scenario (it should start with "scenario=", e.g. scenario=race)');
  });
});

describe('a hostile link that names a real scenario opens the valid part of it, and says what was dropped', () => {
  it('an impossible schedule: a crashed worker asked to step', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start('#scenario=crash-orphan&schedule=A,crash:A,A,B');
    expect(store.getState().schedule).toEqual(['A', 'crash:A']);
    expect(said(store)).toMatch(/Step 3 \("A"\) cannot happen at that point: A cannot move: A has crashed\. The lab kept the 2 steps before it\./);
  });

  it('invalid UTF-8 in the schedule (%C3%28)', async () => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start('#scenario=race&strategy=cas&schedule=A,%C3%28&step=1');
    expect(store.getState().scenarioId).toBe('race');
    expect(store.getState().settings.strategy).toBe('cas');
    expect(store.getState().schedule).toEqual([]);
    expect(said(store)).toContain('Part of the link is not properly encoded ("schedule=A,%C3%28")');
  });

  it.each([
    ['a negative step', '-1', 'The step to show must be a whole number, not "-1"'],
    ['a step that is not a number', 'three', 'The step to show must be a whole number, not "three"'],
    ['a huge step', '99999999999999999999', 'It asks for step "99999999999999999999", far beyond the end of any schedule'],
  ])('%s (step=%s) shows the last step', async (_name, step, message) => {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store.getState().start(`#scenario=race&schedule=A,B,A&step=${step}`);
    expect(store.getState().schedule).toEqual(['A', 'B', 'A']);
    expect(store.getState().position).toBe(store.getState().steps.length);
    expect(said(store)).toContain(message);
  });

  it('HTML and script in every parameter is quoted as text, never used', async () => {
    const html = (text: string) => encodeURIComponent(text);
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null });
    await store
      .getState()
      .start(
        `#scenario=race&strategy=${html('<script>alert(1)</script>')}&fencing=${html('<img src=x onerror=alert(2)>')}&schedule=A,${html('<svg onload=alert(3)>')}&step=${html('<b>1</b>')}`,
      );
    const text = said(store);
    expect(text).toContain('There is no strategy "<script>alert(1)</script>"');
    expect(text).toContain('Fencing must be on or off, not "<img src=x onerror=alert(2)>"');
    expect(text).toContain('"<svg onload=alert(3)>" is not a schedule step');
    expect(text).toContain('The step to show must be a whole number, not "<b>1</b>"');
    expect(store.getState().settings).toEqual({ strategy: 'naive', fencing: false });
    expect(store.getState().schedule).toEqual(['A']);
  });
});

describe('saved places', () => {
  it('a link with an unknown scenario on a new visit opens the saved place instead of overwriting it', async () => {
    const storage = new MemoryStorage();
    const first = await labAtPlace(storage);
    savePlace(storage, { ...place(first), position: first.getState().position });
    const second = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await second.getState().start('#scenario=%3Cscript%3E');
    expect(place(second)).toEqual(place(first));
    expect(said(second)).toContain('There is no scenario "<script>"');
    expect(said(second)).toContain('The lab opened your saved place instead.');
  });

  it('a place saved by an older version (another shape) starts afresh and says why', async () => {
    const storage = new MemoryStorage();
    storage.setItem(PLACE_KEY, JSON.stringify({ version: 0, view: { id: 'race', cursor: 3 } }));
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await store.getState().start('');
    expect(place(store)).toMatchObject({ scenarioId: 'race', schedule: [], position: 0 });
    expect(said(store)).toContain('Your saved place was written by an older version of Lease Lab in a form this one cannot read, so the lab started afresh.');
    expect(storage.data.has(PLACE_KEY)).toBe(false);
  });

  it('a place saved by a newer version starts afresh and says so', async () => {
    const storage = new MemoryStorage();
    storage.setItem(PLACE_KEY, JSON.stringify({ version: 7, scenario: 'race', schedule: ['A'] }));
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage });
    await store.getState().start('');
    expect(said(store)).toContain('written by a newer version of Lease Lab');
  });

  it('a full storage: saving reports false instead of throwing', () => {
    const full: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(savePlace(full, { scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: ['A'], position: 1 })).toBe(false);
    expect(savePlace(new MemoryStorage(), { scenarioId: 'race', settings: { strategy: 'naive', fencing: false }, schedule: ['A'], position: 1 })).toBe(true);
  });
});
