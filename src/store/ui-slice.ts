/** Notices, the help overlay and the theme: state the page shows around the lab itself. */
import type { StateCreator } from 'zustand/vanilla';
import { MAX_NOTICES } from './notices';
import { DEFAULT_PREFS } from './persist';
import type { LabState, UiSlice } from './types';

export function createUiSlice(): StateCreator<LabState, [], [], UiSlice> {
  let nextId = 1;
  return (set, get) => ({
    notices: [],
    helpOpen: false,
    tourOpen: false,
    theme: DEFAULT_PREFS.theme,
    allControls: DEFAULT_PREFS.allControls,
    startCardOpen: false,
    startCardDone: DEFAULT_PREFS.startCardDone,
    levelMoves: [],
    notify(tone, title, details = [], tiedTo) {
      const notice = { id: nextId++, tone, title, details, ...(tiedTo ? { tiedTo } : {}) };
      const kept = tiedTo ? get().notices.filter((n) => n.tiedTo !== tiedTo) : get().notices;
      set({ notices: [...kept, notice].slice(-MAX_NOTICES) });
    },
    dropPlaceNotices() {
      if (get().notices.some((n) => n.tiedTo === 'place')) set({ notices: get().notices.filter((n) => n.tiedTo !== 'place') });
    },
    dismissNotice(id) {
      set({ notices: get().notices.filter((n) => n.id !== id) });
    },
    setHelpOpen(open) {
      set({ helpOpen: open });
    },
    setTourOpen(open) {
      // The tour tells the story from its start: the start card has done its job.
      set(open && get().startCardOpen ? { tourOpen: open, startCardOpen: false, startCardDone: true } : { tourOpen: open });
    },
    setTheme(theme) {
      set({ theme });
    },
    setAllControls(on) {
      set({ allControls: on });
    },
    setLevelMoves(moves) {
      set({ levelMoves: moves });
    },
    closeStartCard() {
      set({ startCardOpen: false, startCardDone: true });
    },
  });
}
