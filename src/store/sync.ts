/**
 * Keeps the outside world in step with the store: the URL fragment (a link to exactly this view), the
 * saved place and preferences in localStorage, and the theme on <html>. Also follows links pasted into
 * the same tab. Returns a function that disconnects everything.
 */
import { isBackpressureFragment } from './backpressure-link';
import type { LabStore } from './lab-store';
import { encodeView } from './permalink';
import { withSpecLink } from './spec-link';
import { noteAddressWrite } from './left-address';
import { readPlaceText, savePlace, savePrefs, type StorageLike, unsavePlace } from './persist';
import type { LabState } from './types';
import type { View } from './view';

export function viewOf(state: LabState): View {
  return { scenarioId: state.scenarioId, settings: state.settings, schedule: state.schedule, position: state.position };
}

/** The lab's link for a state: its view, and the learner's spec when a link can carry it (spec-link.ts). */
export function linkFragment(state: LabState): string {
  return withSpecLink(encodeView(viewOf(state)), state.specRunner.link, state.specRunner.shownOrder, state.specRunner.shownStep);
}

/**
 * Each write of the address and the saved place costs the browser real work, and Chrome drops history
 * calls that come in a flood; so a burst of steps (a held key, fast playback) writes at most this often,
 * and always writes its last view.
 */
export const WRITE_EVERY_MS = 250;

/**
 * Runs `write` once the browser has painted the frame in progress: a step's own render comes first, and
 * the address and storage writes (tens of milliseconds on a busy machine) never delay what the learner
 * clicked for. Without requestAnimationFrame (a window in tests), a plain timer.
 */
function afterNextPaint(win: Window, write: () => void): void {
  if (typeof win.requestAnimationFrame !== 'function') {
    setTimeout(write, 0);
    return;
  }
  win.requestAnimationFrame(() => setTimeout(write, 0));
}

export interface Outside {
  /** Undoes every link to the outside. */
  disconnect: () => void;
  /** Calls `callback` once no write of the address and the saved place is waiting (at once if none is). */
  afterWrites: (callback: () => void) => void;
}

/**
 * `storage` keeps the learner's place and preferences; `tab` (sessionStorage) keeps the lab's last change of
 * the address, for a reload of this tab that began before it (left-address.ts).
 */
export function connectOutside(store: LabStore, win: Window, storage: StorageLike | null, tab: StorageLike | null = null): Outside {
  let written = '';
  let lastWriteAt = Number.NEGATIVE_INFINITY;
  /** The write waiting to happen (0: none); a write that was overtaken finds its number gone. */
  let pending = 0;
  let writes = 0;
  let toldNotSaved = false;
  /** The saved place as it was before the lab last wrote it: what goes back if the view it wrote cannot be drawn. */
  let placeBefore = readPlaceText(storage);
  const waiting: (() => void)[] = [];
  /** No write is waiting any more: whoever waited for the writes goes on. */
  const released = () => {
    pending = 0;
    for (const callback of waiting.splice(0)) callback();
  };
  const writeNow = () => {
    pending = 0;
    try {
      writeLatest();
    } finally {
      // Unless the write itself changed the view again (a new write is then waiting).
      if (pending === 0) released();
    }
  };
  const writeLatest = () => {
    const state = store.getState();
    // While the backpressure view is shown, the address is its link, not the race lab's. A view that
    // failed to draw is never written: not as the address, not as the learner's place.
    if (!state.loaded || state.drawFailure !== null || isBackpressureFragment(win.location.hash)) return;
    const fragment = linkFragment(state);
    if (fragment === written) return;
    written = fragment;
    lastWriteAt = Date.now();
    // A reload already under way keeps the address it took: the note lets it open this view (left-address.ts).
    noteAddressWrite(tab, win.location.hash.replace(/^#/, ''), fragment);
    win.history.replaceState(win.history.state, '', `#${fragment}`);
    placeBefore = readPlaceText(storage);
    if (!savePlace(storage, viewOf(state)) && !toldNotSaved) {
      toldNotSaved = true;
      state.notify('warning', 'Your place in the lab could not be saved in this browser.', [
        'The browser refused to store it (its storage is full or blocked), so a reload without a link starts afresh. The address always links to this exact view: keep it to come back.',
      ]);
    }
  };
  const writeView = () => {
    if (pending !== 0) return;
    writes += 1;
    const mine = writes;
    pending = mine;
    const write = () => {
      if (pending === mine) writeNow();
    };
    const wait = lastWriteAt + WRITE_EVERY_MS - Date.now();
    setTimeout(() => afterNextPaint(win, write), Math.max(0, wait));
  };
  // A write still waiting when the page goes away is done at once.
  const onPageHide = () => writeNow();
  const applyTheme = (state: LabState) => {
    const root = win.document.documentElement;
    if (state.theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', state.theme);
  };
  applyTheme(store.getState());
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.drawFailure !== null && previous.drawFailure === null) {
      // It may have been written already (the write waits only for a paint): put the place before it back.
      released();
      unsavePlace(storage, viewOf(state), placeBefore);
      return;
    }
    if (
      state.loaded !== previous.loaded ||
      state.schedule !== previous.schedule ||
      state.position !== previous.position ||
      state.settings !== previous.settings ||
      state.scenarioId !== previous.scenarioId ||
      state.specRunner.link !== previous.specRunner.link ||
      state.specRunner.shownOrder !== previous.specRunner.shownOrder ||
      state.specRunner.shownStep !== previous.specRunner.shownStep
    ) {
      writeView();
    }
    if (
      state.theme !== previous.theme ||
      state.speed !== previous.speed ||
      state.allControls !== previous.allControls ||
      state.startCardDone !== previous.startCardDone
    ) {
      const { theme, speed, allControls, startCardDone } = state;
      savePrefs(storage, { theme, speed, allControls, startCardDone });
      applyTheme(state);
    }
  });
  const onHashChange = (event?: HashChangeEvent) => {
    released();
    // The link followed is the event's own address: a write of the last view that ran after the address
    // changed and before this event (its timer came first) has put the last view's fragment back in
    // location, and reading that would drop the learner's link. The address is set back to the link.
    const fragment = (event?.newURL ? new URL(event.newURL).hash : win.location.hash).replace(/^#/, '');
    if (win.location.hash.replace(/^#/, '') !== fragment) win.history.replaceState(win.history.state, '', `#${fragment}`);
    if (fragment !== written) {
      written = fragment;
      void store.getState().openLink(fragment);
    }
  };
  win.addEventListener('hashchange', onHashChange);
  win.addEventListener('pagehide', onPageHide);
  return {
    disconnect: () => {
      unsubscribe();
      released();
      win.removeEventListener('hashchange', onHashChange);
      win.removeEventListener('pagehide', onPageHide);
    },
    afterWrites: (callback) => {
      if (pending === 0) callback();
      else waiting.push(callback);
    },
  };
}
