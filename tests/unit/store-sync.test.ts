/**
 * The store's link to the outside (src/store/sync.ts): the address and the saved place follow the view,
 * but never inside the update that changed it (a step's render comes first), and a burst of changes
 * writes once, with its last view.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { defaultSettings, SCENARIOS } from '../../src/scenarios';
import type { LabStore } from '../../src/store/lab-store';
import { decodeView } from '../../src/store/permalink';
import { restoreLeftAddress } from '../../src/store/left-address';
import { connectOutside, WRITE_EVERY_MS } from '../../src/store/sync';
import { MemoryStorage } from '../support/memory-storage';

const scenario = SCENARIOS[0]!;

/** Just the fields sync.ts reads, in a real zustand store. */
function fakeStore() {
  return createStore(() => ({
    loaded: true,
    scenarioId: scenario.id,
    settings: defaultSettings(scenario),
    schedule: [] as string[],
    position: 0 as number | null,
    theme: 'system',
    speed: 1,
    drawFailure: null as string | null,
    // No spec of the learner's: the link is the view's alone.
    specRunner: { link: null, shownOrder: null, shownStep: 0 },
    notify: vi.fn(),
    openLink: vi.fn(async () => undefined),
  }));
}

function fakeWindow() {
  const addresses: string[] = [];
  const frames: (() => void)[] = [];
  const listeners = new Map<string, () => void>();
  const win = {
    location: { hash: '' },
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => {
        addresses.push(url);
        win.location.hash = url;
      },
    },
    document: { documentElement: { setAttribute: () => undefined, removeAttribute: () => undefined } },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    addEventListener: (kind: string, listener: () => void) => {
      listeners.set(kind, listener);
    },
    removeEventListener: (kind: string) => {
      listeners.delete(kind);
    },
  };
  /** The browser paints: the frame callbacks run. */
  const paint = () => {
    for (const callback of frames.splice(0)) callback();
  };
  /** The browser fires a window event. */
  const fire = (kind: string) => listeners.get(kind)?.();
  return { win, addresses, paint, fire };
}

describe('connectOutside', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the address and the saved place only after the next paint, never inside the update', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    const storage = new MemoryStorage();
    connectOutside(store as unknown as LabStore, win as unknown as Window, storage);

    store.setState({ schedule: ['A'], position: 1 });
    expect(addresses).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(addresses, 'nothing before the frame is painted').toEqual([]);
    paint();
    vi.runOnlyPendingTimers();
    expect(addresses).toHaveLength(1);
    expect(decodeView(addresses[0]!.slice(1))?.view).toMatchObject({ schedule: ['A'], position: 1 });
    expect([...storage.data.values()].join()).toContain('"A"');
  });

  it('afterWrites calls back at once with nothing waiting, else once the waiting write is done', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    const outside = connectOutside(store as unknown as LabStore, win as unknown as Window, null);
    const calls: string[] = [];
    outside.afterWrites(() => calls.push('nothing waiting'));
    store.setState({ schedule: ['A'], position: 1 });
    outside.afterWrites(() => calls.push(`after ${addresses.length} write`));
    vi.runOnlyPendingTimers();
    paint();
    expect(calls).toEqual(['nothing waiting']);
    vi.runOnlyPendingTimers();
    expect(calls).toEqual(['nothing waiting', 'after 1 write']);
  });

  it('a burst of steps writes at most once per interval, and always its last view', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    connectOutside(store as unknown as LabStore, win as unknown as Window, null);
    const flush = () => {
      for (let i = 0; i < 5; i++) {
        vi.advanceTimersByTime(WRITE_EVERY_MS);
        paint();
      }
      vi.runOnlyPendingTimers();
    };
    store.setState({ schedule: ['A'], position: 1 });
    flush();
    expect(addresses).toHaveLength(1);
    for (let n = 2; n <= 10; n++) store.setState({ schedule: Array.from({ length: n }, () => 'A'), position: n });
    flush();
    expect(addresses).toHaveLength(2);
    expect(decodeView(addresses[1]!.slice(1))?.view.position).toBe(10);
  });

  it('a link followed before the write is due cancels it: the link wins', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    const listeners = new Map<string, () => void>();
    win.addEventListener = ((type: string, listener: () => void) => void listeners.set(type, listener)) as typeof win.addEventListener;
    connectOutside(store as unknown as LabStore, win as unknown as Window, null);
    store.setState({ schedule: ['A'], position: 1 });
    win.location.hash = '#scenario=race&schedule=B';
    listeners.get('hashchange')!();
    paint();
    vi.runAllTimers();
    expect(addresses).toEqual([]);
    expect(store.getState().openLink).toHaveBeenCalledWith('scenario=race&schedule=B');
  });

  it('a write of the last view that runs after the address changed, before its hashchange event, does not drop the link', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    const listeners = new Map<string, (event?: { newURL: string }) => void>();
    win.addEventListener = ((type: string, listener: () => void) => void listeners.set(type, listener)) as typeof win.addEventListener;
    connectOutside(store as unknown as LabStore, win as unknown as Window, null);
    store.setState({ schedule: ['A'], position: 1 });
    // The learner follows a link; the browser queues its hashchange event, and the lab's write comes first.
    win.location.hash = '#scenario=race&schedule=B';
    vi.runAllTimers();
    paint();
    vi.runAllTimers();
    expect(addresses, 'the write ran and put the last view back in the address').toHaveLength(1);
    listeners.get('hashchange')!({ newURL: 'https://lab.example/#scenario=race&schedule=B' });
    expect(store.getState().openLink).toHaveBeenCalledWith('scenario=race&schedule=B');
    expect(win.location.hash, 'the address is the link again').toBe('#scenario=race&schedule=B');
  });

  it('a view that failed to draw is never saved, and if it was written already the place before it goes back', () => {
    const store = fakeStore();
    const { win, addresses, paint } = fakeWindow();
    const storage = new MemoryStorage();
    connectOutside(store as unknown as LabStore, win as unknown as Window, storage);
    const write = () => {
      vi.advanceTimersByTime(WRITE_EVERY_MS);
      paint();
      vi.runOnlyPendingTimers();
    };
    store.setState({ schedule: ['A'], position: 1 });
    write();
    const good = [...storage.data.values()][0];
    expect(good).toContain('"step":1');

    // Drawn badly before it was written: it is not written at all.
    store.setState({ schedule: ['A', 'B'], position: 2 });
    store.setState({ drawFailure: 'Invalid time value' });
    write();
    expect([...storage.data.values()]).toEqual([good]);
    expect(addresses).toHaveLength(1);

    // Written, then found not to draw: the place saved before it is put back.
    store.setState({ drawFailure: null, schedule: ['A', 'B', 'A'], position: 3 });
    write();
    expect([...storage.data.values()][0]).toContain('"step":3');
    store.setState({ drawFailure: 'Invalid time value' });
    expect([...storage.data.values()]).toEqual([good]);
  });

  describe('a reload that began before the last write of the address (it opens the address it took: left-address.ts)', () => {
    /** The page's start in the same tab, opened (`how`) at `address`: the address the lab then reads. */
    function openAt(address: string, tab: MemoryStorage, how: string): string {
      const next = fakeWindow().win;
      next.location.hash = address;
      restoreLeftAddress(next as unknown as Window, tab, how);
      return next.location.hash;
    }
    /** A lab linked to a page, with this tab's sessionStorage. */
    function connected() {
      const store = fakeStore();
      const page = fakeWindow();
      const tab = new MemoryStorage();
      connectOutside(store as unknown as LabStore, page.win as unknown as Window, null, tab);
      return { store, page, tab };
    }
    /** The lab at `schedule`, its address written; returns the address before that write. */
    function stepAndWrite(store: ReturnType<typeof fakeStore>, win: ReturnType<typeof fakeWindow>, schedule: string[]): string {
      const before = win.win.location.hash;
      store.setState({ schedule, position: schedule.length });
      vi.advanceTimersByTime(WRITE_EVERY_MS);
      win.paint();
      vi.runOnlyPendingTimers();
      return before;
    }

    it.each(['reload', 'back_forward'])('reopened (%s) at the address the last write replaced, the page opens the view written; once', (how) => {
      const { store, page, tab } = connected();
      stepAndWrite(store, page, ['A']);
      const stale = stepAndWrite(store, page, ['A', 'B']);
      expect(decodeView(stale.slice(1))?.view).toMatchObject({ schedule: ['A'], position: 1 });
      expect(decodeView(openAt(stale, tab, how).slice(1))?.view).toMatchObject({ schedule: ['A', 'B'], position: 2 });
      expect(tab.data.size, 'the note is read once').toBe(0);
      expect(openAt(stale, tab, how)).toBe(stale);
    });

    it('a write still waiting as the page goes away is noted too', () => {
      const { store, page, tab } = connected();
      stepAndWrite(store, page, ['A']);
      store.setState({ schedule: ['A', 'B'], position: 2 });
      // The reload began here, before the write was due: it takes this address.
      const address = page.win.location.hash;
      expect(decodeView(address.slice(1))?.view).toMatchObject({ schedule: ['A'], position: 1 });
      page.fire('pagehide');
      expect(decodeView(openAt(address, tab, 'reload').slice(1))?.view).toMatchObject({ schedule: ['A', 'B'], position: 2 });
    });

    it('a page opened any other way, or at another address, keeps its address', () => {
      const { store, page, tab } = connected();
      stepAndWrite(store, page, ['A']);
      const stale = stepAndWrite(store, page, ['A', 'B']);
      expect(openAt(stale, tab, 'navigate'), 'a link followed').toBe(stale);
      stepAndWrite(store, page, ['A', 'B', 'A']);
      expect(openAt('#scenario=crash-orphan', tab, 'reload'), 'another address').toBe('#scenario=crash-orphan');
    });
  });
});
