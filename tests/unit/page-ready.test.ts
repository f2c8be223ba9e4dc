/**
 * The page says it is ready (app/ready.ts) only once the first step can run and the page has drawn it:
 * the panels' copy has caught up, the address is written, and a frame has been painted after that. Each
 * step of that order is held back here in turn, and the signal waits for it.
 */
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { declareReadyWhenDrawn, windowFrames } from '../../src/app/ready';
import type { LabState } from '../../src/store/types';
import { trailingCopy } from '../../src/store/trailing';

/** The fields the signal reads, in a real zustand store, with a hand-run copy and frames. */
function setUp() {
  const store = createStore(() => ({ loaded: false, enginePhase: 'starting' }) as unknown as LabState);
  const tasks: (() => void)[] = [];
  const panels = trailingCopy(store, (callback) => tasks.push(callback));
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  let writing: (() => void) | null = null;
  const said: string[] = [];
  declareReadyWhenDrawn({
    store,
    panels: panels.store,
    afterWrites: (callback) => {
      if (writing === null) callback();
      else writing = callback;
    },
    frames: { requestAnimationFrame: (callback) => frames.push(callback), setTimeout: (callback) => timers.push(callback) },
    declare: () => said.push('ready'),
  });
  const run = (queue: (() => void)[]) => {
    for (const callback of queue.splice(0)) callback();
  };
  return {
    store,
    said,
    /** The panels' copy catches up (its task runs). */
    catchUp: () => run(tasks),
    /** A frame is painted, then the task after it. */
    paint: () => {
      run(frames);
      run(timers);
    },
    /** An address write is waiting, until `written` is called. */
    writePending: () => {
      writing = () => undefined;
    },
    written: () => {
      const waiting = writing;
      writing = null;
      waiting?.();
    },
  };
}

describe('declareReadyWhenDrawn', () => {
  it('waits for the panels, then the address write, then a painted frame; and says it once', () => {
    const page = setUp();
    page.writePending();
    page.store.setState({ loaded: true, enginePhase: 'ready' });
    page.paint();
    expect(page.said, 'the store alone is not ready').toEqual([]);
    page.catchUp();
    page.paint();
    expect(page.said, 'the address is still to be written').toEqual([]);
    page.written();
    expect(page.said, 'not before a frame is painted after it').toEqual([]);
    page.paint();
    expect(page.said).toEqual(['ready']);
    page.store.setState({ loaded: true, enginePhase: 'ready', position: 1 } as Partial<LabState>);
    page.catchUp();
    page.paint();
    expect(page.said).toEqual(['ready']);
  });

  it('waits for the engine too: a loaded trace with Postgres still starting is not ready', () => {
    const page = setUp();
    page.store.setState({ loaded: true });
    page.catchUp();
    page.paint();
    expect(page.said).toEqual([]);
    page.store.setState({ enginePhase: 'ready' });
    page.catchUp();
    page.paint();
    expect(page.said).toEqual(['ready']);
  });
});

describe('windowFrames', () => {
  function fakeWindow(visibilityState: 'visible' | 'hidden') {
    const frames: (() => void)[] = [];
    const listeners = new Set<() => void>();
    const win = {
      requestAnimationFrame: (callback: () => void) => void frames.push(callback),
      setTimeout: (callback: () => void) => callback(),
      document: {
        visibilityState,
        addEventListener: (_type: string, listener: () => void) => void listeners.add(listener),
        removeEventListener: (_type: string, listener: () => void) => void listeners.delete(listener),
      },
    };
    const hide = () => {
      win.document.visibilityState = 'hidden';
      for (const listener of listeners) listener();
    };
    /** The browser draws a frame. */
    const draw = () => {
      for (const frame of frames.splice(0)) frame();
    };
    return { win, draw, hide };
  }

  it('waits for a frame in a visible tab, goes on at once in a hidden one, and when the tab is hidden meanwhile', () => {
    const visible = fakeWindow('visible');
    const calls: string[] = [];
    windowFrames(visible.win as unknown as Window).requestAnimationFrame(() => calls.push('frame'));
    expect(calls).toEqual([]);
    visible.draw();
    expect(calls).toEqual(['frame']);

    windowFrames(fakeWindow('hidden').win as unknown as Window).requestAnimationFrame(() => calls.push('hidden'));
    expect(calls).toEqual(['frame', 'hidden']);

    const hiddenLater = fakeWindow('visible');
    windowFrames(hiddenLater.win as unknown as Window).requestAnimationFrame(() => calls.push('hidden later'));
    hiddenLater.hide();
    hiddenLater.draw();
    expect(calls, 'once').toEqual(['frame', 'hidden', 'hidden later']);
  });
});
