/**
 * Keeps the outside world in step with the store: the URL fragment (a link to exactly this view), the
 * saved place and preferences in localStorage, and the theme on <html>. Also follows links pasted into
 * the same tab. Returns a function that disconnects everything.
 */
import type { LabStore } from './lab-store';
import { encodeView } from './permalink';
import { savePlace, savePrefs, type StorageLike } from './persist';
import type { LabState } from './types';
import type { View } from './view';

export function viewOf(state: LabState): View {
  return { scenarioId: state.scenarioId, settings: state.settings, schedule: state.schedule, position: state.position };
}

export function connectOutside(store: LabStore, win: Window, storage: StorageLike | null): () => void {
  let written = '';
  const writeView = (state: LabState) => {
    if (!state.loaded) return;
    const fragment = encodeView(viewOf(state));
    if (fragment === written) return;
    written = fragment;
    win.history.replaceState(win.history.state, '', `#${fragment}`);
    savePlace(storage, viewOf(state));
  };
  const applyTheme = (state: LabState) => {
    const root = win.document.documentElement;
    if (state.theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', state.theme);
  };
  applyTheme(store.getState());
  const unsubscribe = store.subscribe((state, previous) => {
    if (
      state.loaded !== previous.loaded ||
      state.schedule !== previous.schedule ||
      state.position !== previous.position ||
      state.settings !== previous.settings ||
      state.scenarioId !== previous.scenarioId
    ) {
      writeView(state);
    }
    if (state.theme !== previous.theme || state.speed !== previous.speed) {
      savePrefs(storage, { theme: state.theme, speed: state.speed });
      applyTheme(state);
    }
  });
  const onHashChange = () => {
    const fragment = win.location.hash.replace(/^#/, '');
    if (fragment !== written) {
      written = fragment;
      void store.getState().openLink(fragment);
    }
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}
